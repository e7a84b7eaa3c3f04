// The games, their boards and rule options as the server describes them (GET /api/rules),
// and their names and options in the reader's words.
import { T } from './i18n.js';
import { api } from './api.js';

let RULES = { games: [], options: [] };

// Asks the server for the games once, at the start (newgame.js builds its form from them).
async function loadRules() {
  RULES = await api('GET', '/rules');
  return RULES;
}
const rules = () => RULES;

// The rule options' words, by the server's field (GET /api/rules): the message's value is
// the option's name, `.about` what it decides, and one attribute per value. An option the
// catalogue does not know yet keeps the server's English.
const OPTION_MESSAGES = {
  casa_rows: { msg: 'option-casa-rows' }, leftover: { msg: 'option-leftover' }, final_four: { msg: 'option-final-four' },
};
const optionMsg = (o) => OPTION_MESSAGES[o.field] && OPTION_MESSAGES[o.field].msg;
const optionLabel = (o) => (optionMsg(o) ? T(optionMsg(o)) : o.label);
const optionAbout = (o) => (optionMsg(o) ? T.attr(optionMsg(o), 'about') : o.description);
function valueLabel(o, value) {
  const id = optionMsg(o);
  if (id && T.has(id, value)) return T.attr(id, value);
  return (o.values.find((x) => x.name === value) || { label: value }).label;
}

const gameInfo = (game) => RULES.games.find((g) => g.game === game);
const gameTitle = (game) => (gameInfo(game) || { title: game }).title;
const optionsOf = (game) => RULES.options.filter((o) => (gameInfo(game) || { options: [] }).options.includes(o.field));

export { loadRules, rules, optionLabel, optionAbout, valueLabel, gameInfo, gameTitle, optionsOf };
