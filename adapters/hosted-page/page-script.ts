import { SCHEME_LABELS } from './card-messages.js';
import { CARD_RULES_SCRIPT } from './card-rules-script.js';

/**
 * The hosted page's script, served as a same-origin file (`script-src 'self'`). It is an
 * enhancement: the form posts and is checked on the server without it. With it, the page
 * formats the card number and expiry as they are typed, shows the detected scheme, checks each
 * field inline (Luhn, expiry, CVC length for the scheme) with the server's messages, fills the
 * 3DS browser data into hidden fields, and shows progress while the payment runs.
 */
export const PAGE_SCRIPT = String.raw`(function () {
'use strict';
${CARD_RULES_SCRIPT}
var SCHEME_LABELS = ${JSON.stringify(SCHEME_LABELS)};

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
    check(name);
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
    input(invalid[0]).focus();
    return;
  }
  collectBrowserData();
  setBusy(true);
});

window.addEventListener('pageshow', function (event) { if (event.persisted) setBusy(false); });

collectBrowserData();
showScheme(cardDigits(input('number').value));
})();
`;
