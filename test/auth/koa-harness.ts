import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type { ApiError } from '../../engine/core/errors.js';

/** The part of a tap Test the helpers use (tap's own type is a deep generic). */
export interface TestLike {
  testdir(): string;
  teardown(fn: () => unknown): void;
}

/**
 * A small Koa app standing in for the engine in auth tests: koa-body parses JSON,
 * form and multipart bodies; errors render as the contract's error envelope and
 * `ctx.state.result` as the success envelope (the engine's convention).
 */
export async function startApp(t: Pick<TestLike, 'teardown'>, register: (router: Router) => void): Promise<string> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.state.result !== undefined) ctx.body = { status: 200, success: true, result: ctx.state.result };
    } catch (error) {
      // Duck-typed: a module loaded through t.mockImport throws its own copy of the ApiError class.
      if (!(error instanceof Error) || !('code' in error) || !('status' in error)) throw error;
      const apiError = error as ApiError;
      ctx.status = apiError.status;
      if (apiError.headers) ctx.set(apiError.headers);
      ctx.body = { status: apiError.status, success: false, error: apiError.code, message: apiError.message };
    }
  });
  app.use(koaBody({ multipart: true }));
  const router = new Router();
  register(router);
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
