export { paystate, type PaystateFastifyOptions } from './paystate-plugin.js';
