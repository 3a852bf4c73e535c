#!/usr/bin/env node
// The message catalogue is complete: every language has every English message, in every plural form its
// language needs (Intl.PluralRules), with the same placeholders; every English message has a description for
// translators; no language has a message English lacks. Run by `npm run check`; test/unit/shared/i18n uses
// checkCatalogue on broken copies. Plain Node: it reads JSON files only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MESSAGES_DIR = join(ROOT, 'electron', 'shared', 'i18n', 'messages');
const SOURCE = 'en';
const TRANSLATIONS = ['fr', 'es', 'de'];
const DESCRIPTIONS = 'descriptions';
const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*([^}\s,]+)[^}]*\}\}/g;

function readNamespaces(dir, language, problems) {
  const folder = join(dir, language);
  const namespaces = new Map();
  if (!existsSync(folder)) {
    problems.push(`${language}: no folder ${folder}`);
    return namespaces;
  }
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    try {
      const messages = JSON.parse(readFileSync(join(folder, file), 'utf8'));
      const bad = Object.entries(messages).filter(
        ([, text]) => typeof text !== 'string' || text.trim() === '',
      );
      for (const [key] of bad) problems.push(`${language}/${file}: "${key}" is empty or not text`);
      namespaces.set(file.replace(/\.json$/, ''), messages);
    } catch (error) {
      problems.push(`${language}/${file}: not JSON (${error.message})`);
    }
  }
  return namespaces;
}

/** A namespace's messages by base key: the plain text, or the forms of a plural. */
function byBaseKey(messages) {
  const keys = new Map();
  for (const [key, text] of Object.entries(messages)) {
    const plural = PLURAL.exec(key);
    const base = plural ? plural[1] : key;
    const entry = keys.get(base) ?? { forms: new Map(), plain: undefined };
    if (plural) entry.forms.set(plural[2], text);
    else entry.plain = text;
    keys.set(base, entry);
  }
  return keys;
}

function placeholdersOf(texts, ignoreCount) {
  const names = new Set();
  for (const text of texts)
    for (const match of text.matchAll(PLACEHOLDER))
      if (!(ignoreCount && match[1] === 'count')) names.add(match[1]);
  return [...names].sort().join(', ');
}

function checkEntry(where, language, english, translated, problems) {
  if (!translated) return problems.push(`${where}: missing in ${language}`);
  if (english.plain !== undefined) {
    if (translated.plain === undefined)
      return problems.push(`${where}: ${language} has plural forms, English has none`);
    const wanted = placeholdersOf([english.plain], false);
    const found = placeholdersOf([translated.plain], false);
    if (wanted !== found)
      problems.push(`${where}: ${language} has placeholders {${found}}, English {${wanted}}`);
    return;
  }
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  for (const category of categories)
    if (!translated.forms.has(category))
      problems.push(`${where}: ${language} lacks the plural form _${category}`);
  for (const form of translated.forms.keys())
    if (!categories.includes(form))
      problems.push(`${where}: ${language} has a plural form _${form} it never uses`);
  // A form may leave the count out ("une passerelle"); every other placeholder must be there.
  const wanted = placeholdersOf([...english.forms.values()], true);
  const found = placeholdersOf([...translated.forms.values()], true);
  if (wanted !== found)
    problems.push(`${where}: ${language} has placeholders {${found}}, English {${wanted}}`);
}

/** Every problem of the catalogue under `dir`, as lines a person can act on; empty when it is complete. */
export function checkCatalogue(dir = MESSAGES_DIR) {
  const problems = [];
  const english = readNamespaces(dir, SOURCE, problems);
  const descriptions = readNamespaces(dir, DESCRIPTIONS, problems);
  for (const [namespace, messages] of english) {
    const source = byBaseKey(messages);
    for (const [base, entry] of source) {
      if (entry.plain !== undefined && entry.forms.size > 0)
        problems.push(`en/${namespace}.json: "${base}" is both a plain message and a plural`);
      const categories = new Intl.PluralRules(SOURCE).resolvedOptions().pluralCategories;
      if (entry.plain === undefined)
        for (const category of categories)
          if (!entry.forms.has(category)) problems.push(`en/${namespace}.json: "${base}" lacks _${category}`);
      if (typeof descriptions.get(namespace)?.[base] !== 'string')
        problems.push(`descriptions/${namespace}.json: "${base}" has no description for translators`);
    }
    for (const key of Object.keys(descriptions.get(namespace) ?? {}))
      if (!source.has(key))
        problems.push(`descriptions/${namespace}.json: "${key}" describes no English message`);
  }
  for (const namespace of descriptions.keys())
    if (!english.has(namespace)) problems.push(`descriptions/${namespace}.json: no English namespace`);
  for (const language of TRANSLATIONS) {
    const translated = readNamespaces(dir, language, problems);
    for (const [namespace, messages] of english) {
      const target = byBaseKey(translated.get(namespace) ?? {});
      if (!translated.has(namespace)) problems.push(`${language}/${namespace}.json: missing`);
      for (const [base, entry] of byBaseKey(messages))
        checkEntry(`${namespace}:${base}`, language, entry, target.get(base), problems);
      for (const base of target.keys())
        if (!byBaseKey(messages).has(base))
          problems.push(`${language}/${namespace}.json: "${base}" is not an English message`);
    }
    for (const namespace of translated.keys())
      if (!english.has(namespace)) problems.push(`${language}/${namespace}.json: no English namespace`);
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkCatalogue();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(
      `\nThe message catalogue has ${problems.length} problem(s); see CONTRIBUTING.md, "Words on screen".`,
    );
    process.exit(1);
  }
  console.log('message catalogue: complete in en, fr, es, de');
}
