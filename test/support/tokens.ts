/**
 * Admin and metrics tokens for tests: fixed (so a failure is reproducible) and strong
 * enough for the boot's check (engine/platform/settings/secret-strength.ts), which refuses
 * placeholders such as `admin-secret`.
 */
export const TEST_ADMIN_TOKEN = '6f1c9e2a7b4d8053e1f6a9c2d7b3e8f4';
export const TEST_METRICS_TOKEN = 'b83e5a0d9c2f71e64a8d3b0c5f9e2a17';
