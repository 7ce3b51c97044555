// Swagger UI on the locally served document. A separate file, not an inline script,
// so the page's Content-Security-Policy can forbid inline scripts.
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // ~1,200 operations: start collapsed, offer the tag filter, skip the model list
  docExpansion: 'none',
  filter: true,
  defaultModelsExpandDepth: -1,
  persistAuthorization: true,
  // the default sends the document to an online validator: nothing leaves this server
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
