import { CARD_FIELD_LABELS, SCHEME_LABELS } from './card-messages.js';
import { CARD_RULES_SCRIPT } from './card-rules-script.js';

/** How long before the payment expires the page warns the cardholder (in an alert). */
const WARN_BEFORE_MS = 2 * 60_000;

/**
 * The hosted page's script, same-origin (`script-src 'self'`), an enhancement only: formatting,
 * inline checks, 3DS browser data, progress and time left (hosted-page.md).
 */
export const PAGE_SCRIPT = String.raw`(function () {
'use strict';
${CARD_RULES_SCRIPT}
var SCHEME_LABELS = ${JSON.stringify(SCHEME_LABELS)};
var WARN_BEFORE_MS = ${WARN_BEFORE_MS};
var REFRESH_OFF_KEY = 'paystate-refresh-off';

// A payment in progress: open the page again every few seconds, unless the cardholder stopped
// that (remembered for the tab) or is on a link (a reload would take their place away).
function autoRefresh(box) {
  var seconds = Number(box.getAttribute('data-seconds')) || 3;
  var toggle = document.getElementById('refresh-toggle');
  var note = document.getElementById('refresh-note');
  var again = document.getElementById('check-again');
  var off = false;
  var timer = null;
  try { off = window.sessionStorage.getItem(REFRESH_OFF_KEY) === '1'; } catch (e) { off = false; }
  function tick() {
    timer = null;
    var active = document.activeElement;
    if (active && active.tagName === 'A') { schedule(); return; }
    window.location.replace(again ? again.href : window.location.href);
  }
  function schedule() { if (!off && timer === null) timer = setTimeout(tick, seconds * 1000); }
  function show() {
    note.textContent = off
      ? 'Automatic checking is off. Use Check again to see the result.'
      : 'This page checks for the result every ' + seconds + ' seconds.';
    toggle.textContent = off ? 'Check automatically' : 'Stop checking automatically';
  }
  toggle.addEventListener('click', function () {
    off = !off;
    try { window.sessionStorage.setItem(REFRESH_OFF_KEY, off ? '1' : '0'); } catch (e) { /* not kept */ }
    if (off && timer !== null) { clearTimeout(timer); timer = null; }
    show();
    schedule();
  });
  if (off) show();
  box.hidden = false;
  schedule();
}

var refreshBox = document.getElementById('auto-refresh');
if (refreshBox) autoRefresh(refreshBox);

var form = document.getElementById('card-form');
if (!form) return;
form.noValidate = true;
var fields = {
  number: function (v) { return numberError(v); },
  expiry: function (v) { return expiryError(v, Date.now()); },
  cvc: function (v) { return cvcError(v, input('number').value); },
  holder_name: function (v) { return nameError(v); }
};
var order = ['number', 'expiry', 'cvc', 'holder_name'];
var LABELS = ${JSON.stringify(CARD_FIELD_LABELS)};
var touched = {};
var submitting = false;

function input(name) { return document.getElementById(name); }

function setHidden(name, value) {
  var field = form.elements.namedItem(name);
  if (field) field.value = String(value);
}

function collectBrowserData() {
  var java = false;
  try { java = typeof navigator.javaEnabled === 'function' && navigator.javaEnabled() === true; } catch (e) { java = false; }
  setHidden('javascript_enabled', 'true');
  setHidden('java_enabled', java ? 'true' : 'false');
  setHidden('screen_width', window.screen.width);
  setHidden('screen_height', window.screen.height);
  setHidden('color_depth', window.screen.colorDepth);
  setHidden('timezone_offset', new Date().getTimezoneOffset());
  setHidden('language', navigator.language || '');
}

function showError(name, message) {
  var field = input(name);
  var error = document.getElementById(name + '-error');
  if (!field || !error) return;
  field.setAttribute('aria-invalid', message ? 'true' : 'false');
  error.textContent = message;
  error.hidden = !message;
  field.closest('.field').classList.toggle('has-error', !!message);
}

function check(name) {
  var message = fields[name](input(name).value);
  showError(name, message);
  return message;
}

// The message of a field the cardholder just left, said without taking the focus away (WCAG
// 4.1.3): the focus is on the next field by then, and its own description is read there.
function announce(text) {
  var region = document.getElementById('field-status');
  if (!region) return;
  region.textContent = '';
  setTimeout(function () { region.textContent = text; }, 50);
}

function caretAfterDigits(field, text, digitsBefore) {
  var position = 0, seen = 0;
  while (position < text.length && seen < digitsBefore) {
    if (/\d/.test(text.charAt(position))) seen++;
    position++;
  }
  if (document.activeElement === field) field.setSelectionRange(position, position);
}

function digitsBeforeCaret(field) {
  var end = field.selectionStart === null ? field.value.length : field.selectionStart;
  return field.value.slice(0, end).replace(/\D/g, '').length;
}

function groupsFor(digits) {
  var scheme = schemeByPrefix(digits);
  if (scheme === 'amex') return [4, 6, 5];
  if (scheme === 'diners' && digits.length === 14) return [4, 6, 4];
  return [4, 4, 4, 4, 3];
}

function formatNumber(digits) {
  var groups = groupsFor(digits), parts = [], start = 0;
  for (var i = 0; i < groups.length && start < digits.length; i++) {
    parts.push(digits.slice(start, start + groups[i]));
    start += groups[i];
  }
  if (start < digits.length) parts.push(digits.slice(start));
  return parts.join(' ');
}

function showScheme(digits) {
  var badge = document.getElementById('number-scheme');
  var scheme = schemeByPrefix(digits);
  var label = scheme ? SCHEME_LABELS[scheme] || '' : '';
  if (badge.textContent !== label) badge.textContent = label;
  badge.hidden = !label;
  var cvc = input('cvc');
  var hint = document.getElementById('cvc-hint');
  var amex = scheme === 'amex';
  cvc.maxLength = amex ? 4 : 3;
  if (hint) hint.textContent = amex ? '4 digits on the front' : '3 digits on the back';
}

input('number').addEventListener('input', function (event) {
  var field = event.target;
  var before = digitsBeforeCaret(field);
  var digits = field.value.replace(/\D/g, '').slice(0, 19);
  var formatted = formatNumber(digits);
  if (formatted !== field.value) {
    field.value = formatted;
    caretAfterDigits(field, formatted, before);
  }
  showScheme(digits);
  if (touched.number) check('number');
  if (touched.cvc) check('cvc');
});

input('expiry').addEventListener('input', function (event) {
  var field = event.target;
  var deleting = typeof event.inputType === 'string' && event.inputType.indexOf('delete') === 0;
  var atEnd = field.selectionStart === null || field.selectionStart === field.value.length;
  var before = digitsBeforeCaret(field);
  var full = /^\s*(\d{1,2})\s*\/\s*(\d{4})\s*$/.exec(field.value);
  if (full) {
    // Autofill may write the year with four digits.
    field.value = (full[1].length === 1 ? '0' : '') + full[1] + '/' + full[2].slice(2);
    if (touched.expiry) check('expiry');
    return;
  }
  var digits = field.value.replace(/\D/g, '').slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1 && !deleting) {
    digits = '0' + digits;
    before++;
  }
  var slash = digits.length > 2 || (digits.length === 2 && !deleting);
  var formatted = slash ? digits.slice(0, 2) + '/' + digits.slice(2) : digits;
  if (formatted !== field.value) {
    field.value = formatted;
    if (atEnd) field.setSelectionRange(formatted.length, formatted.length);
    else caretAfterDigits(field, formatted, before);
  }
  if (touched.expiry) check('expiry');
});

input('cvc').addEventListener('input', function (event) {
  var field = event.target;
  var digits = field.value.replace(/\D/g, '').slice(0, 4);
  if (digits !== field.value) field.value = digits;
  if (touched.cvc) check('cvc');
});

input('holder_name').addEventListener('input', function () {
  if (touched.holder_name) check('holder_name');
});

// A field is checked when the cardholder leaves it, except when they leave it by pressing the pay
// button: a message appearing then would move the button away from under the pointer before the
// click lands. The submit checks every field anyway.
var payButton = document.getElementById('pay-button');
var pressingPay = false;
payButton.addEventListener('pointerdown', function () { pressingPay = true; });
document.addEventListener('pointerup', function () { setTimeout(function () { pressingPay = false; }, 0); });
document.addEventListener('pointercancel', function () { pressingPay = false; });

order.forEach(function (name) {
  input(name).addEventListener('blur', function (event) {
    if (submitting || pressingPay || event.relatedTarget === payButton) return;
    if (input(name).value.trim() === '' && !touched[name]) return;
    touched[name] = true;
    var message = check(name);
    if (message) announce(LABELS[name] + ': ' + message);
  });
  if (input(name).getAttribute('aria-invalid') === 'true') touched[name] = true;
});

function setBusy(busy) {
  var button = document.getElementById('pay-button');
  var status = document.getElementById('pay-status');
  submitting = busy;
  form.setAttribute('aria-busy', busy ? 'true' : 'false');
  form.classList.toggle('is-busy', busy);
  button.setAttribute('aria-disabled', busy ? 'true' : 'false');
  order.forEach(function (name) { input(name).readOnly = busy; });
  status.textContent = busy ? 'Processing your payment. This can take a few seconds; please keep this page open.' : '';
}

form.addEventListener('submit', function (event) {
  if (submitting) { event.preventDefault(); return; }
  var invalid = [];
  order.forEach(function (name) {
    touched[name] = true;
    if (check(name)) invalid.push(name);
  });
  if (invalid.length > 0) {
    event.preventDefault();
    var status = document.getElementById('pay-status');
    status.textContent = invalid.length === 1 ? 'One field needs your attention.' : invalid.length + ' fields need your attention.';
    if (document.title.indexOf('Error: ') !== 0) document.title = 'Error: ' + document.title;
    input(invalid[0]).focus();
    return;
  }
  collectBrowserData();
  setBusy(true);
});

window.addEventListener('pageshow', function (event) { if (event.persisted) setBusy(false); });

// The time left (WCAG 2.2.1): the line above the fields counts down by the minute, and an alert
// warns a little before the payment expires, and again when it has.
function timeLimit(line) {
  var left = Number(line.getAttribute('data-expires-in'));
  if (!(left > 0)) return;
  var deadline = Date.now() + left;
  var warning = document.getElementById('time-warning');
  function minutesLeft() { return Math.max(0, Math.ceil((deadline - Date.now()) / 60000)); }
  function update() {
    var minutes = minutesLeft();
    if (minutes === 0) {
      line.textContent = 'The time to complete this payment has run out.';
      if (warning) warning.textContent = 'This payment has expired. Return to the shop to start again.';
      return;
    }
    line.textContent = 'You have ' + minutes + ' minute' + (minutes === 1 ? '' : 's') + ' to complete this payment.';
    setTimeout(update, Math.min(60000, deadline - Date.now()));
  }
  // A timer of more than 2^31 - 1 ms fires at once: a payment that long away gets no warning.
  if (warning && left - WARN_BEFORE_MS < 2147483647) {
    setTimeout(function () {
      if (Date.now() >= deadline) return;
      var minutes = minutesLeft();
      warning.textContent = 'Only ' + minutes + ' minute' + (minutes === 1 ? '' : 's') +
        ' left to complete this payment. After that, you will need to return to the shop and start again.';
    }, Math.max(0, left - WARN_BEFORE_MS));
  }
  setTimeout(update, Math.min(60000, left));
}
var limitLine = document.getElementById('time-limit');
if (limitLine) timeLimit(limitLine);

collectBrowserData();
showScheme(cardDigits(input('number').value));
})();
`;
