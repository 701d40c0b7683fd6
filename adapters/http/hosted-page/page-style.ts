/**
 * The hosted page's style sheet, same-origin (`style-src 'self'`): large targets, visible focus,
 * contrast of at least 4.5:1 for text and 3:1 for borders, one column on phones, reduced motion.
 */
export const PAGE_CSS = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
  font-size: 16px;
  line-height: 1.5;
  color: #111827;
  background: #eef1f5;
}
.shell { min-height: 100vh; display: flex; flex-direction: column; align-items: center; padding: 56px 16px 40px; }
.test-mode {
  margin: 0 0 14px; padding: 3px 12px; border-radius: 999px; background: #fef3c7; color: #7c2d12;
  font-size: 0.8125rem; font-weight: 600; letter-spacing: 0.02em;
}
.panel {
  width: 100%; max-width: 440px; background: #fff; border-radius: 16px; overflow: hidden;
  box-shadow: 0 1px 2px rgba(17, 24, 39, 0.06), 0 12px 32px rgba(17, 24, 39, 0.08);
}
.summary { padding: 28px 32px 24px; border-bottom: 1px solid #e5e7eb; background: #fbfcfd; }
.merchant { display: flex; align-items: center; gap: 12px; margin: 0 0 18px; font-weight: 600; }
.monogram {
  flex: none; width: 36px; height: 36px; border-radius: 10px; display: grid; place-items: center;
  background: #1e3a8a; color: #fff; font-size: 1rem; font-weight: 700;
}
.pay-label { margin: 0; color: #4b5563; font-size: 0.9375rem; }
.amount { margin: 2px 0 0; font-size: 2.25rem; line-height: 1.15; font-weight: 700; letter-spacing: -0.02em; font-variant-numeric: tabular-nums; }
.description { margin: 8px 0 0; color: #4b5563; overflow-wrap: anywhere; }
form, .message { padding: 24px 32px 28px; }
.alert {
  margin: 0 0 20px; padding: 12px 14px; border-radius: 10px; border: 1px solid #fca5a5; background: #fef2f2; color: #7f1d1d;
}
.alert:focus { outline: 3px solid #b91c1c; outline-offset: 2px; }
.time-limit { margin: 0 0 16px; color: #374151; font-size: 0.9375rem; }
.time-warning {
  margin: 0 0 16px; padding: 10px 14px; border-radius: 10px; border: 1px solid #b45309; background: #fffbeb; color: #78350f;
  font-weight: 600;
}
.time-warning:empty { margin: 0; padding: 0; border: 0; }
.alert p { margin: 0; }
.alert ul { margin: 6px 0 0; padding-left: 20px; }
.alert a { color: #7f1d1d; font-weight: 600; }
.field { margin: 0 0 18px; }
.label-row { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin: 0 0 6px; }
.field label { display: block; margin: 0 0 6px; font-weight: 600; font-size: 0.9375rem; }
.label-row label { margin: 0; }
.hint { font-weight: 400; color: #4b5563; }
.control { position: relative; }
.field input {
  display: block; width: 100%; height: 48px; margin: 0; padding: 0 14px; font: inherit; font-size: 1rem; color: #111827;
  background: #fff; border: 1px solid #7b818c; border-radius: 10px; appearance: none;
  transition: border-color 0.15s;
}
.field input::placeholder { color: #6b7280; }
.field input:hover { border-color: #4b5563; }
.field input:focus { outline: 3px solid #1d4ed8; outline-offset: 1px; border-color: #1d4ed8; }
.field input[aria-invalid="true"] { border-color: #b91c1c; }
.field input[aria-invalid="true"]:focus { outline-color: #b91c1c; border-color: #b91c1c; }
.field input[readonly] { background: #f9fafb; }
#number { letter-spacing: 0.02em; font-variant-numeric: tabular-nums; }
.scheme {
  padding: 1px 10px; border-radius: 999px; background: #e0e7ff; color: #1e3a8a; font-size: 0.8125rem; font-weight: 600;
  line-height: 1.5;
}
.scheme[hidden] { display: none; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; align-items: start; }
.error { margin: 6px 0 0; color: #b91c1c; font-size: 0.875rem; }
.error[hidden] { display: none; }
.pay {
  position: relative; display: flex; align-items: center; justify-content: center; gap: 10px; width: 100%; height: 52px;
  margin: 8px 0 0; border: 0; border-radius: 10px; background: #1d4ed8; color: #fff; font: inherit; font-size: 1.0625rem;
  font-weight: 600; cursor: pointer; transition: background 0.15s;
}
.pay:hover { background: #1e40af; }
.pay:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 3px; }
.pay:active { background: #1e3a8a; }
.spinner {
  display: none; width: 18px; height: 18px; border-radius: 50%; border: 2px solid rgba(255, 255, 255, 0.45);
  border-top-color: #fff; animation: spin 0.8s linear infinite;
}
.is-busy .pay { background: #1e40af; cursor: progress; }
.is-busy .spinner { display: inline-block; }
.is-busy .pay-text-idle { display: none; }
.pay-text-busy { display: none; }
.is-busy .pay-text-busy { display: inline; }
@keyframes spin { to { transform: rotate(360deg); } }
.status { min-height: 1.25em; margin: 8px 0 0; color: #374151; font-size: 0.875rem; text-align: center; }
.status:empty { min-height: 0; margin: 0; }
.secure { display: flex; align-items: center; justify-content: center; gap: 6px; margin: 4px 0 0; color: #4b5563; font-size: 0.8125rem; }
.secure svg { flex: none; }
.back { margin: 20px 0 0; font-size: 0.9375rem; text-align: center; }
.back a, .message a.link { color: #1f2937; }
.refresh { margin: 0 0 12px; }
.message .refresh p { margin: 0 0 4px; font-size: 0.9375rem; }
.link-button {
  min-height: 44px; padding: 0 8px; border: 0; background: none; color: #1f2937; font: inherit; font-size: 0.9375rem;
  text-decoration: underline; cursor: pointer;
}
.link-button:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; border-radius: 4px; }
.message .check-again { margin: 16px 0 0; }
a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; border-radius: 4px; }
.message { text-align: center; }
.message h1 { margin: 12px 0 8px; font-size: 1.375rem; line-height: 1.3; }
.message p { margin: 0 0 12px; color: #374151; }
.badge { width: 52px; height: 52px; margin: 4px auto 0; border-radius: 50%; display: grid; place-items: center; }
.badge-success { background: #dcfce7; color: #166534; }
.badge-failure { background: #fee2e2; color: #991b1b; }
.badge-neutral { background: #e0e7ff; color: #1e3a8a; }
.button {
  display: inline-flex; align-items: center; justify-content: center; min-height: 48px; margin: 8px 0 0; padding: 0 22px;
  border-radius: 10px; background: #1d4ed8; color: #fff; font-weight: 600; text-decoration: none;
}
.button:hover { background: #1e40af; }
.facts {
  display: grid; grid-template-columns: auto 1fr; gap: 6px 16px; margin: 16px 0 12px; padding: 14px 16px;
  border-radius: 10px; background: #f3f4f6; text-align: left;
}
.facts dt { color: #4b5563; }
.facts dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.message .note { font-size: 0.875rem; overflow-wrap: anywhere; }
.test-cards { margin: 16px 0 0; font-size: 0.875rem; color: #374151; }
.test-cards summary { cursor: pointer; font-weight: 600; }
.test-cards summary:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.test-cards dl { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 8px 0 0; }
.test-cards dt { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: nowrap; }
.test-cards dd { margin: 0; color: #4b5563; }
.visually-hidden {
  position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
@media (max-width: 480px) {
  .shell { padding: 16px 12px 28px; }
  .summary { padding: 22px 20px 20px; }
  form, .message { padding: 20px 20px 24px; }
  .amount { font-size: 2rem; }
}
@media (prefers-reduced-motion: reduce) {
  .spinner { animation-duration: 2.4s; }
  .field input, .pay { transition: none; }
}
@media (forced-colors: active) {
  .pay, .button { border: 2px solid ButtonText; }
  .field input:focus { outline: 2px solid Highlight; }
}
`;
