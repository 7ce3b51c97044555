import { secretEquals } from '../../platform/auth/constant-time.js';
import { bearerToken } from '../../platform/auth/key-from-request.js';
import { ApiError } from '../../core/errors.js';

const forbidden = (message: string) => new ApiError('forbidden', message);

/**
 * The check of every `auth: admin` built-in: `Authorization: Bearer $ADMIN_TOKEN`,
 * compared in constant time; 403 forbidden otherwise, and always while ADMIN_TOKEN is
 * unset. API keys play no part: an admin route is authorised by the token alone.
 */
export function requireAdminToken(authorization: string, adminToken: string | undefined): void {
  if (!adminToken) throw forbidden('Admin routes are disabled: ADMIN_TOKEN is not set on this server (set it, then send Authorization: Bearer <ADMIN_TOKEN>)');
  const presented = bearerToken(authorization);
  if (presented === undefined || !secretEquals(presented, adminToken)) throw forbidden('This route requires Authorization: Bearer <ADMIN_TOKEN>');
}
