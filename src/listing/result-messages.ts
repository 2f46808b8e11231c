/**
 * What the search's results and the models' rows say, in each language: the part of the pages'
 * messages (languages.ts, whose MESSAGES hold these too) that the search script needs, kept apart
 * so that the script carries these and not every word of the pages in both languages.
 */
// It imports nothing of the listing: the language tables (languages.ts) hold it, and the search's
// sort keys reach it only where a sort's label is read (`says.sorts[sort]`, typed by the sort key),
// which holds it to every key.

const en = {
  columns: { logo: 'Logo', model: 'Model', seats: 'Seats', engine: 'Engine size', price: 'Price', transmission: 'Transmission' },
  electric: 'Electric',
  electricOr: (range: string) => `Electric or ${range}`,
  automatic: 'Automatic',
  manual: 'Manual',
  /** Between the items of a short list ("Automatic, Manual"). */
  listSeparator: ', ',
  logoOf: (make: string) => `${make} logo`,
  noLogoFor: (make: string) => `No logo for ${make}`,
  sorts: {
    price: 'Price, low to high',
    '-price': 'Price, high to low',
    name: 'Name, A to Z',
    '-name': 'Name, Z to A',
    seats: 'Seats, fewest first',
    '-seats': 'Seats, most first',
    engine: 'Engine size, smallest first',
    '-engine': 'Engine size, largest first',
  },
  showMore: 'Show more',
  showMoreLeft: (left: string) => `Show more (${left} left)`,
  loading: 'Searching…',
  loadFailed: 'The search could not load its data. Browse the pages below instead.',
  typeMore: 'Type at least two letters of a name, or one Chinese character.',
  noMatches: 'No models match this search. Try fewer filters or another name.',
  /** A search that has read part of its list and found nothing yet: how many rows it looked at. */
  noneYet: (looked: string) => `None found yet among the ${looked} models looked at. Keep looking to search further.`,
  keepLooking: 'Keep looking',
  allModels: (count: string) => `All ${count} models.`,
  matches: (count: string, one: boolean) => `${count} ${one ? 'model matches' : 'models match'} this search.`,
  aboutMatches: (count: string) => `About ${count} models match this search.`,
  atLeastMatches: (count: string) => `At least ${count} models match this search.`,
  /** The sentence after a count, with the space the language puts between sentences (none in Chinese). */
  sortedBy: (label: string) => ` Sorted by: ${label}.`,
};

/** What the results and rows say, in one language. */
export type ResultMessages = typeof en;

const zhHk: ResultMessages = {
  columns: { logo: '標誌', model: '車款', seats: '座位', engine: '引擎容量', price: '價格', transmission: '波箱' },
  electric: '電動',
  electricOr: (range) => `電動或 ${range}`,
  automatic: '自動波',
  manual: '手動波',
  listSeparator: '、',
  logoOf: (make) => `${make} 標誌`,
  noLogoFor: (make) => `${make} 沒有標誌`,
  sorts: {
    price: '價格，由低至高',
    '-price': '價格，由高至低',
    name: '名稱，A 至 Z',
    '-name': '名稱，Z 至 A',
    seats: '座位，由少至多',
    '-seats': '座位，由多至少',
    engine: '引擎容量，由小至大',
    '-engine': '引擎容量，由大至小',
  },
  showMore: '顯示更多',
  showMoreLeft: (left) => `顯示更多（尚餘 ${left} 款）`,
  loading: '搜尋中…',
  loadFailed: '搜尋未能載入所需資料。請改為瀏覽以下列表。',
  typeMore: '請輸入名稱最少兩個字母，或一個中文字。',
  noMatches: '沒有車款符合搜尋。請減少篩選條件或改用其他名稱。',
  noneYet: (looked) => `已查看 ${looked} 款，暫未找到符合的車款。按「繼續搜尋」再找。`,
  keepLooking: '繼續搜尋',
  allModels: (count) => `全部 ${count} 款車。`,
  matches: (count) => `共 ${count} 款車符合搜尋。`,
  aboutMatches: (count) => `約 ${count} 款車符合搜尋。`,
  atLeastMatches: (count) => `最少 ${count} 款車符合搜尋。`,
  sortedBy: (label) => `排序：${label}。`,
};

/** By language (languages.ts holds it to every language: `MESSAGES`). */
export const RESULT_MESSAGES = { en, 'zh-hk': zhHk } satisfies Record<string, ResultMessages>;
