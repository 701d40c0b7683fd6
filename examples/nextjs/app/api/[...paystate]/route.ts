/**
 * `app/api/[...paystate]/route.ts`: every request under `/api` that no other route takes goes to
 * paystate's fetch handler, which answers unknown paths and methods itself (404, 405 problems).
 */
import { handler } from '../../../paystate';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handler;
export const HEAD = handler;
export const POST = handler;
export const PUT = handler;
export const PATCH = handler;
export const DELETE = handler;
export const OPTIONS = handler;
