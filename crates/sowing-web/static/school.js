// The school (docs/web.md, "The school"): one dialog with the opening explorer and the
// endgame practice, opened from the header (School), from the board (Explore, at the
// position shown) and from the review (Explore, at the turn reviewed; Practise, from the
// game's first won position inside the tables).
import { I18N, translatePage } from './i18n.js';
import { S } from './state.js';
import { buildExplorer, openExplorer, relabelExplorer } from './explorer.js';
import { buildPractice, openPractice, relabelPractice } from './practice.js';

const $ = (id) => document.getElementById(id);

function build() {
  const dialog = document.createElement('dialog');
  dialog.id = 'school';
  dialog.className = 'school';
  dialog.setAttribute('aria-labelledby', 'school-title');
  dialog.innerHTML = `<div class="school-head">
      <h2 id="school-title" data-i18n="school-title"></h2>
      <div class="school-tabs" role="tablist">
        <button type="button" role="tab" id="school-tab-explorer" data-i18n="school-explorer"></button>
        <button type="button" role="tab" id="school-tab-practice" data-i18n="school-practice"></button>
      </div>
      <button type="button" id="school-close" data-i18n="school-close"></button>
    </div>
    <section id="explorer" class="explorer" role="tabpanel"></section>
    <section id="practice" class="practice" role="tabpanel" hidden></section>`;
  document.body.append(dialog);
  buildExplorer($('explorer'));
  buildPractice($('practice'));
  $('school-tab-explorer').addEventListener('click', () => tab('explorer'));
  $('school-tab-practice').addEventListener('click', () => { tab('practice'); openPractice(); });
  $('school-close').addEventListener('click', () => dialog.close());
  translatePage(dialog);
}

function tab(name) {
  $('explorer').hidden = name !== 'explorer';
  $('practice').hidden = name !== 'practice';
  $('school-tab-explorer').setAttribute('aria-selected', String(name === 'explorer'));
  $('school-tab-practice').setAttribute('aria-selected', String(name === 'practice'));
  $('school').dataset.tab = name;
}

function show(name) {
  tab(name);
  if (!$('school').open) $('school').showModal();
}

// The explorer at the start of the game on the board (or Hoyito II's).
export function openSchool() {
  show('explorer');
  openExplorer({ game: S.view ? S.view.rules.game : undefined });
}

// The explorer at the position the board shows (the turn reviewed, when reviewing).
function exploreBoard() {
  if (!S.view) { openSchool(); return; }
  show('explorer');
  openExplorer({ from: S.view.id, ply: S.viewPly === null ? S.view.ply : S.viewPly });
}

function practiseGame() {
  if (!S.view) return;
  show('practice');
  openPractice({ from: S.view.id });
}

// A button of the school; its words are set by translatePage from its data-i18n.
function button(id, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = id;
  b.addEventListener('click', onClick);
  return b;
}

// The review is drawn again as it changes: its two buttons are put back each time.
function decorateReview() {
  const review = $('review');
  if (!review || review.hidden || $('review-explore')) return;
  const p = document.createElement('p');
  p.className = 'review-school';
  const explore = button('review-explore', exploreBoard);
  explore.dataset.i18n = 'school-explore-here';
  const practise = button('review-practise', practiseGame);
  practise.dataset.i18n = 'school-practise-game';
  p.append(explore, ' ', practise);
  review.append(p);
  translatePage(p);
}

export function startSchool() {
  build();
  const nav = document.querySelector('header.top nav');
  const school = button('btn-school', openSchool);
  school.dataset.i18n = 'nav-school';
  nav.append(school);
  const explore = button('btn-explore', exploreBoard);
  explore.dataset.i18n = 'school-explore-here';
  document.querySelector('.controls').append(explore);
  translatePage(nav);
  translatePage(document.querySelector('.controls'));
  const review = $('review');
  if (review) {
    new MutationObserver(decorateReview).observe(review, { childList: true, attributes: true, attributeFilter: ['hidden'] });
  }
  I18N.changed.push(() => {
    translatePage($('school'));
    relabelExplorer();
    relabelPractice();
  });
}
