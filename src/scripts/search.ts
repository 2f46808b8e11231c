/**
 * The browsable listing's progressive enhancement: the page jump box, the language switch that
 * keeps the search, and search, filters and sorts over the whole listing from the sharded index
 * (src/listing/search-reader.ts reads it), with the criteria kept in the URL so a search can be
 * shared and reloaded. Results are written with the listing pages' own row markup
 * (src/listing/model-table.ts), every value escaped as the pages escape it.
 */
import { countIn, languageOf } from '../listing/languages.ts';
import { RESULT_MESSAGES } from '../listing/result-messages.ts';
import { makeKeyOf } from '../listing/makes.ts';
import { modelRowHtml } from '../listing/model-table.ts';
import { htmlPagePath } from '../listing/routes.ts';
import { countOf, readStep, RESULTS_PER_STEP, searchable, startSearch, type Search } from '../listing/search-reader.ts';
import {
  AUTO,
  criteriaFromQuery,
  effectiveSort,
  hasCriteria,
  MANUAL,
  queryFromCriteria,
  type Criteria,
  type Entry,
} from '../listing/search.ts';

/** Files kept in memory: the heap stays small however long one searches. */
const CACHED_FILES = 256;

const language = languageOf(document.documentElement.lang);
const says = RESULT_MESSAGES[language];
const count = (value: number) => countIn(language, value);

/** The index's files, fetched once each while they are in the cache (the oldest dropped first); with `ifThere`, a 404 is undefined. */
const cache = new Map<string, Promise<unknown>>();
function fetchJson<T>(path: string, ifThere = false): Promise<T> {
  const cached = cache.get(path);
  if (cached) {
    cache.delete(path);
    cache.set(path, cached);
    return cached as Promise<T>;
  }
  const loading = fetch(path).then((response) => {
    if (ifThere && response.status === 404) return undefined;
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json() as Promise<T>;
  });
  // A failed file is fetched again next time.
  loading.catch(() => cache.delete(path));
  cache.set(path, loading);
  if (cache.size > CACHED_FILES) cache.delete(cache.keys().next().value!);
  return loading as Promise<T>;
}

function setUpJump(): void {
  const form = document.querySelector<HTMLFormElement>('form.jump');
  if (!form) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const pageCount = Number(form.dataset['pageCount']);
    const page = Number(new FormData(form).get('page'));
    if (Number.isInteger(page) && page >= 1 && page <= pageCount) window.location.assign(htmlPagePath(page, language));
  });
}

/** The language switch's links keep the search: its criteria go with it. */
function keepSearchInLanguageLinks(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-language-link]')) {
    const url = new URL(link.href);
    url.search = window.location.search;
    link.href = url.href;
  }
}

function setUpSearch(): void {
  const section = document.querySelector<HTMLElement>('[data-search]');
  const form = section?.querySelector<HTMLFormElement>('form');
  const status = section?.querySelector<HTMLElement>('[data-search-status]');
  const results = section?.querySelector<HTMLElement>('[data-search-results]');
  const body = results?.querySelector<HTMLTableSectionElement>('tbody');
  const showMore = section?.querySelector<HTMLButtonElement>('[data-show-more]');
  const listing = document.querySelector<HTMLElement>('[data-listing]');
  if (!section || !form || !status || !results || !body || !showMore || !listing) return;
  // The page's address for the index's logo paths: a path for the shipped logos, so they load on any host and port.
  const logoBase = section.dataset['logoBase'] ?? '';
  const rows = Number(section.dataset['rows']);
  const latinMakes = new Map(
    [...form.querySelectorAll<HTMLOptionElement>('option[data-latin]')].map((option) => [option.value, option.dataset['latin'] ?? '']),
  );

  const rowFor = ([, name, minSeat, maxSeat, minEngine, maxEngine, minPrice, maxPrice, transmissions, logo]: Entry): string =>
    modelRowHtml(
      {
        name,
        seats: [minSeat, maxSeat],
        engine: [minEngine, maxEngine],
        price: [minPrice, maxPrice],
        automatic: Boolean(transmissions & AUTO),
        manual: Boolean(transmissions & MANUAL),
        logo: logo === null ? null : `${logoBase}/${logo}`,
        make: latinMakes.get(makeKeyOf(name)) ?? '',
      },
      language,
    );

  let current: Search | undefined;
  let runs = 0;
  /** A search waiting for the typing to pause: while one is, the page is not done. */
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settle = () => {
    if (timer === undefined) section.dataset['searchState'] = 'done';
  };

  const say = (search: Search) => {
    const sort = effectiveSort(search.criteria);
    const order = sort ? says.sortedBy(says.sorts[sort]) : '';
    // Exact, about a number within 10 % of the truth, or at least those found: never a guess.
    const { kind, count: total } = countOf(search);
    // Nothing found yet is not "no match": the list is not read to its end (and a count beside no row would puzzle).
    const noneYet = search.matches.length === 0 && !search.ended;
    if (noneYet) status.textContent = says.noneYet(count(search.looked));
    else if (total === 0) status.textContent = says.noMatches;
    else if (Object.keys(search.criteria).length === 1 && search.criteria.sort !== undefined)
      status.textContent = `${says.allModels(count(rows))}${order}`;
    else if (kind === 'exact') status.textContent = `${says.matches(count(total), total === 1)}${order}`;
    else status.textContent = `${kind === 'about' ? says.aboutMatches(count(total)) : says.atLeastMatches(count(total))}${order}`;
    showMore.hidden = search.shown >= search.matches.length && search.ended;
    showMore.textContent = noneYet ? says.keepLooking : kind === 'exact' ? says.showMoreLeft(count(total - search.shown)) : says.showMore;
  };

  const showStep = async (search: Search) => {
    section.dataset['searchState'] = 'loading';
    const pressed = document.activeElement === showMore;
    await readStep(search);
    // The rows are written in a task of their own: on a slow phone, reading the step's files and
    // writing its rows in one were one long task, in which the page answered nothing.
    await new Promise((resolve) => setTimeout(resolve));
    if (search !== current) return;
    const next = search.matches.slice(search.shown, search.shown + RESULTS_PER_STEP);
    const shownBefore = body.rows.length;
    body.insertAdjacentHTML('beforeend', next.map(rowFor).join(''));
    search.shown += next.length;
    listing.hidden = true;
    results.hidden = search.shown === 0;
    say(search);
    // The button pressed is gone: the keyboard goes on from the first row it added (or, where it added
    // none, from what the search says), not from the page's top.
    const focusTarget = body.rows[shownBefore] ?? status;
    if (pressed && showMore.hidden) {
      focusTarget.tabIndex = -1;
      focusTarget.focus();
    }
    settle();
  };

  const criteriaFromForm = (): Criteria => {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value.trim() !== '') query.set(name, value);
    return criteriaFromQuery(query);
  };

  const fillForm = (criteria: Criteria) => {
    const query = queryFromCriteria(criteria);
    for (const element of form.elements) {
      if (element instanceof HTMLInputElement && element.type === 'checkbox') element.checked = query.get(element.name) === element.value;
      else if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) element.value = query.get(element.name) ?? '';
    }
  };

  const run = async (criteria: Criteria) => {
    const query = queryFromCriteria(criteria).toString();
    const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
    if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) window.history.replaceState(null, '', url);
    keepSearchInLanguageLinks();
    const id = (runs += 1);
    current = undefined;
    body.replaceChildren();
    showMore.hidden = true;
    if (!hasCriteria(criteria) || !searchable(criteria)) {
      results.hidden = true;
      showMore.hidden = true;
      listing.hidden = false;
      status.textContent = hasCriteria(criteria) ? says.typeMore : '';
      settle();
      return;
    }
    status.textContent = says.loading;
    section.dataset['searchState'] = 'loading';
    try {
      const search = await startSearch(fetchJson, criteria, rows);
      if (id !== runs) return;
      current = search;
      await showStep(search);
    } catch {
      // Said on the page: the listing below still works without the index.
      if (id !== runs) return;
      status.textContent = says.loadFailed;
      results.hidden = true;
      showMore.hidden = true;
      listing.hidden = false;
      settle();
    }
  };

  const schedule = () => {
    clearTimeout(timer);
    section.dataset['searchState'] = 'loading';
    timer = setTimeout(() => {
      timer = undefined;
      void run(criteriaFromForm());
    }, 150);
  };
  // While an input method composes (Jyutping, Cangjie: "fung" before 豐), its letters are not the search.
  form.addEventListener('input', (event) => {
    if (!(event instanceof InputEvent && event.isComposing)) schedule();
  });
  form.addEventListener('compositionend', schedule);
  form.addEventListener('change', schedule);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run(criteriaFromForm());
  });
  form.addEventListener('reset', () => setTimeout(() => void run({}), 0));
  showMore.addEventListener('click', () => {
    if (current) void showStep(current).catch(() => (status.textContent = says.loadFailed));
  });

  const initial = criteriaFromQuery(new URLSearchParams(window.location.search));
  // A make typed into an address, or kept from an old link, by its Latin name in any case (`make=toyota`
  // is 豐田's); one that names no make of the listing is dropped, not searched for and shown as "any".
  if (initial.make !== undefined && !latinMakes.has(initial.make)) {
    const typed = initial.make.toLowerCase();
    const known = [...latinMakes].find(([, latin]) => latin.toLowerCase() === typed)?.[0];
    if (known === undefined) delete initial.make;
    else initial.make = known;
  }
  fillForm(initial);
  if (hasCriteria(initial)) void run(initial);
  else settle();
}

setUpJump();
keepSearchInLanguageLinks();
setUpSearch();
