export {
  paystateFrameworkErrors,
  type FrameworkErrorsHandler,
  type PaystateFrameworkErrorsOptions,
} from './framework-errors.js';
export { paystate, type PaystateFastifyOptions } from './paystate-plugin.js';
