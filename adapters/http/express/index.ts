export { consumedBody, UnencodableBodyError } from './consumed-body.js';
export { createServer, type CreateServerOptions } from './create-server.js';
export { createExpressRouter, type ExpressRouterOptions } from './express-router.js';
export { paystate, type PaystateExpressOptions } from './paystate.js';
export { paystateErrorHandler, type PaystateErrorHandlerOptions } from './problem-error-handler.js';
