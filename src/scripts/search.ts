/**
 * The browsable listing's progressive enhancement: the page jump box, and search and filters over
 * the whole listing from the compact index, with the criteria kept in the URL so a search can be
 * shared and reloaded. Results are written with textContent only: names are data, never markup.
 */
import { counted, formatEngineRange, formatPriceRange, formatRange, formatTransmissions, initialOf, splitName } from '../listing/format.ts';
import { htmlPagePath, PUBLISHED } from '../listing/routes.ts';
import {
  AUTO,
  criteriaFromQuery,
  filterEntries,
  hasCriteria,
  MANUAL,
  queryFromCriteria,
  SORT_LABELS,
  sortEntries,
  type Criteria,
  type IndexEntry,
  type SearchIndex,
} from '../listing/search.ts';

const RESULTS_PER_STEP = 50;

function setUpJump(): void {
  const form = document.querySelector<HTMLFormElement>('form.jump');
  if (!form) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const pageCount = Number(form.dataset['pageCount']);
    const page = Number(new FormData(form).get('page'));
    if (Number.isInteger(page) && page >= 1 && page <= pageCount) window.location.assign(htmlPagePath(page));
  });
}

function setUpSearch(): void {
  const section = document.querySelector<HTMLElement>('[data-search]');
  const form = section?.querySelector<HTMLFormElement>('form');
  const status = section?.querySelector<HTMLElement>('[data-search-status]');
  const results = section?.querySelector<HTMLElement>('[data-search-results]');
  const body = results?.querySelector<HTMLTableSectionElement>('tbody');
  const showMore = section?.querySelector<HTMLButtonElement>('[data-show-more]');
  const template = section?.querySelector<HTMLTemplateElement>('[data-row-template]');
  const listing = document.querySelector<HTMLElement>('[data-listing]');
  if (!section || !form || !status || !results || !body || !showMore || !template || !listing) return;
  const [rowWithLogo, rowWithoutLogo] = [...template.content.querySelectorAll('tbody tr')] as HTMLTableRowElement[];
  if (!rowWithLogo || !rowWithoutLogo) return;
  // The page's address for the index's logo paths: a path for the shipped logos, so they load on any host and port.
  const logoBase = template.dataset['logoBase'] ?? '';

  let index: SearchIndex | undefined;
  let loading: Promise<SearchIndex> | undefined;
  let matches: IndexEntry[] = [];
  let shown = 0;

  const loadIndex = (): Promise<SearchIndex> => {
    loading ??= fetch(PUBLISHED.searchIndex).then(async (response) => {
      if (!response.ok) throw new Error(`search index: ${response.status}`);
      index = (await response.json()) as SearchIndex;
      return index;
    });
    return loading;
  };

  const rowFor = (entry: IndexEntry, { logos, makes }: SearchIndex): HTMLTableRowElement => {
    const [, name, minSeat, maxSeat, minEngine, maxEngine, minPrice, maxPrice, transmissions, logo, makeIndex] = entry;
    const row = (logo >= 0 ? rowWithLogo : rowWithoutLogo).cloneNode(true) as HTMLTableRowElement;
    const { local, latin } = splitName(name);
    const make = makes[makeIndex]?.[1] ?? '';
    const image = row.querySelector('img');
    if (image) {
      image.src = `${logoBase}/${logos[logo] ?? ''}`;
      image.alt = `${make} logo`;
    }
    const placeholder = row.querySelector<HTMLElement>('.logo-missing');
    if (placeholder) {
      placeholder.setAttribute('aria-label', `No logo for ${make}`);
      placeholder.title = `No logo for ${make}`;
    }
    const initial = row.querySelector('.logo-missing span');
    if (initial) initial.textContent = initialOf(name);
    const localPart = row.querySelector('.name-local');
    if (localPart && local) localPart.textContent = local;
    else if (localPart) {
      // A name with no local-script part has no such span (nor the space after it), as on the pages.
      localPart.nextSibling?.remove();
      localPart.remove();
    }
    const latinPart = row.querySelector('.name-latin');
    if (latinPart) latinPart.textContent = latin;
    const cell = (label: string, text: string) => {
      const target = row.querySelector(`td[data-label="${label}"]`);
      if (target) target.textContent = text;
    };
    cell('Seats', formatRange(minSeat, maxSeat));
    cell('Engine size', formatEngineRange(minEngine, maxEngine));
    cell('Price', formatPriceRange(minPrice, maxPrice));
    cell('Transmission', formatTransmissions(Boolean(transmissions & AUTO), Boolean(transmissions & MANUAL)));
    return row;
  };

  const showNext = (loaded: SearchIndex) => {
    const next = matches.slice(shown, shown + RESULTS_PER_STEP);
    body.append(...next.map((entry) => rowFor(entry, loaded)));
    shown += next.length;
    showMore.hidden = shown >= matches.length;
    showMore.textContent = `Show more (${counted(matches.length - shown)} left)`;
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
    if (!hasCriteria(criteria)) {
      results.hidden = true;
      listing.hidden = false;
      status.textContent = '';
      return;
    }
    if (!index) status.textContent = 'Loading the search index…';
    let loaded: SearchIndex;
    try {
      loaded = await loadIndex();
    } catch {
      // Said on the page: the listing below still works without it.
      status.textContent = 'The search index could not be loaded. Browse the pages below instead.';
      return;
    }
    matches = sortEntries(filterEntries(loaded.entries, criteria, loaded.makes), criteria.sort);
    shown = 0;
    body.replaceChildren();
    showNext(loaded);
    listing.hidden = true;
    results.hidden = matches.length === 0;
    const order = criteria.sort ? ` Sorted by: ${SORT_LABELS[criteria.sort]}.` : '';
    const onlySorted = Object.keys(criteria).length === 1 && criteria.sort !== undefined;
    status.textContent =
      matches.length === 0
        ? 'No models match this search. Try fewer filters or another name.'
        : onlySorted
          ? `All ${counted(matches.length)} models.${order}`
          : `${counted(matches.length)} ${matches.length === 1 ? 'model matches' : 'models match'} this search.${order}`;
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(criteriaFromForm()), 150);
  };
  form.addEventListener('input', schedule);
  form.addEventListener('change', schedule);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run(criteriaFromForm());
  });
  form.addEventListener('reset', () => setTimeout(() => void run({}), 0));
  showMore.addEventListener('click', () => index && showNext(index));

  const initial = criteriaFromQuery(new URLSearchParams(window.location.search));
  fillForm(initial);
  if (hasCriteria(initial)) void run(initial);
}

setUpJump();
setUpSearch();
