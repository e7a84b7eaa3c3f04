// The page's words (docs/web.md, "Languages"). Every text the page shows comes from a
// Fluent catalogue, /i18n/<language>.ftl, formatted by @fluent/bundle (vendor/, README):
// plurals by the language's rules, numbers and dates by Intl for the reader's locale. The
// language is the one chosen with the header's control (kept in this browser's storage),
// else the first of the browser's languages the page has, else English.
//
//   T(id, args)            a message's text
//   T.attr(id, name, args) one of its attributes
//   T.html(id, args)       its text for innerHTML: the arguments (strangers' names) escaped
//   data-i18n=ID           in the HTML: the element's text is the message's value (if it has
//                          one) and each of its attributes (.title, .aria-label …) is set
//   data-i18n-html=ID      the element's HTML is the message (the catalogue's own markup)
//
// I18N.ready settles when the catalogues are loaded and the page translated; a module that
// writes words itself adds a function to I18N.changed to write them again in another language.
import { FluentBundle, FluentResource } from './vendor/fluent-bundle/index.js';

export const I18N = {
  languages: ['en', 'es'],   // each has static/i18n/<language>.ftl
  lang: 'en',
  locale: 'en',              // for Intl: the browser's own tag for the language (es-DO …)
  bundles: {},               // language → FluentBundle
  changed: [],               // called after the language changes
  ready: null,
};
const LANG_KEY = 'sowing.lang';

// The browser's own tag for `lang` (its regional form, for numbers and dates), or `lang`.
function localeFor(lang) {
  const tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  return tags.find((tag) => tag.toLowerCase().split('-')[0] === lang) || lang;
}

// The stored choice, else the first of the browser's languages the page has.
function chooseLanguage() {
  const saved = localStorage.getItem(LANG_KEY);
  if (I18N.languages.includes(saved)) return saved;
  const tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const tag of tags) {
    const lang = tag.toLowerCase().split('-')[0];
    if (I18N.languages.includes(lang)) return lang;
  }
  return 'en';
}

async function loadCatalogue(lang) {
  const response = await fetch(`/i18n/${lang}.ftl`);
  if (!response.ok) throw new Error(`/i18n/${lang}.ftl: ${response.status}`);
  const bundle = new FluentBundle([localeFor(lang), lang], { useIsolating: false });
  const errors = bundle.addResource(new FluentResource(await response.text()));
  for (const e of errors) console.warn(`i18n ${lang}:`, e);
  return bundle;
}

// The bundle holding `id`: the language's, else English's (a test keeps them complete).
function bundleFor(id) {
  const own = I18N.bundles[I18N.lang];
  if (own && own.hasMessage(id)) return own;
  const en = I18N.bundles.en;
  return en && en.hasMessage(id) ? en : null;
}

function formatted(bundle, pattern, args) {
  const errors = [];
  const text = bundle.formatPattern(pattern, args, errors);
  for (const e of errors) console.warn('i18n:', e);
  return text;
}

export function T(id, args) {
  const bundle = bundleFor(id);
  const message = bundle && bundle.getMessage(id);
  if (!message || !message.value) { console.warn('i18n: no message', id); return id; }
  return formatted(bundle, message.value, args);
}

T.attr = (id, name, args) => {
  const bundle = bundleFor(id);
  const message = bundle && bundle.getMessage(id);
  const pattern = message && message.attributes[name];
  if (!pattern) { console.warn('i18n: no attribute', id, name); return `${id}.${name}`; }
  return formatted(bundle, pattern, args);
};

// Whether the catalogues have the message (and its attribute `name`).
T.has = (id, name) => {
  const bundle = bundleFor(id);
  const message = bundle && bundle.getMessage(id);
  return !!message && (name === undefined || !!message.attributes[name]);
};

const escapeArg = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
T.html = (id, args) => {
  const safe = {};
  for (const [k, v] of Object.entries(args || {})) safe[k] = typeof v === 'string' ? escapeArg(v) : v;
  return T(id, safe);
};

// A message's text, made safe to put into innerHTML.
T.escaped = (id, args) => escapeArg(T(id, args));

// A number as the reader writes it (Intl).
T.number = (n, options) => new Intl.NumberFormat(I18N.locale, options).format(n);

// Translates the elements that name a message.
export function translatePage(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const id = el.dataset.i18n;
    const bundle = bundleFor(id);
    const message = bundle && bundle.getMessage(id);
    if (!message) { console.warn('i18n: no message', id); continue; }
    if (message.value) el.textContent = formatted(bundle, message.value);
    for (const [name, pattern] of Object.entries(message.attributes)) el.setAttribute(name, formatted(bundle, pattern));
  }
  for (const el of root.querySelectorAll('[data-i18n-html]')) el.innerHTML = T(el.dataset.i18nHtml);
}

function useLanguage(lang) {
  I18N.lang = lang;
  I18N.locale = localeFor(lang);
  document.documentElement.lang = lang;
  translatePage();
  const select = document.getElementById('lang');
  if (select) select.value = lang;
}

// The header's control: each language by its own name.
function languageControl() {
  const select = document.getElementById('lang');
  if (!select) return;
  select.innerHTML = '';
  for (const lang of I18N.languages) {
    const bundle = I18N.bundles[lang];
    if (!bundle) continue;
    const option = document.createElement('option');
    option.value = lang;
    option.lang = lang;
    option.textContent = formatted(bundle, bundle.getMessage('language-name').value);
    select.append(option);
  }
  select.value = I18N.lang;
  select.addEventListener('change', () => {
    localStorage.setItem(LANG_KEY, select.value);
    useLanguage(select.value);
    for (const f of I18N.changed) f(select.value);
  });
}

// Every catalogue (they are small): switching is then instant.
I18N.ready = (async () => {
  const lang = chooseLanguage();
  await Promise.all(I18N.languages.map(async (l) => {
    try { I18N.bundles[l] = await loadCatalogue(l); } catch (e) { console.warn('i18n:', e); }
  }));
  if (document.readyState === 'loading') await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve));
  useLanguage(I18N.bundles[lang] ? lang : 'en');
  languageControl();
})();
