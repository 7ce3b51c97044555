// Swagger UI on the locally served documents. A separate file, not an inline script,
// so the page's Content-Security-Policy can forbid inline scripts.
window.ui = SwaggerUIBundle({
  // one document per category (a selector in the top bar): the whole catalog takes
  // Swagger UI tens of seconds to render, a category a moment
  configUrl: '/docs/swagger-config.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // hundreds of operations: start collapsed, offer the tag filter, skip the model list
  docExpansion: 'none',
  filter: true,
  defaultModelsExpandDepth: -1,
  persistAuthorization: true,
  // the default sends the document to an online validator: nothing leaves this server
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout',
});
