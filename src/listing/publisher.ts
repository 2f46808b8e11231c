/**
 * What a publisher states in the OpenAPI document's `info` (contract.ts): a contact and a licence,
 * from the configuration (API_CONTACT, API_LICENSE in src/config.ts), and what the consumers'
 * linters miss on their default rules where they are not stated in full.
 */
import spdxLicenses from 'spdx-license-list';
import { z } from 'zod';

/** OpenAPI's Contact object: each part optional. */
export interface Contact {
  name?: string;
  url?: string;
  email?: string;
}

/**
 * OpenAPI's License object with its URL: `identifier` and `url` exclude each other, and Spectral's
 * `license-url` (every spectral:oas rule) warns without a URL, so an SPDX licence is named by its
 * page on spdx.org, which carries its identifier.
 */
export interface License {
  name: string;
  url: string;
}

/** What a publisher states, where it does. */
export interface Publisher {
  contact?: Contact | undefined;
  license?: License | undefined;
}

const isHttpUrl = (text: string) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
const isEmail = (text: string) => z.email().safeParse(text).success;

/** `Name <email> (URL)`, as npm's `author` field: each part optional, in that order. */
const PERSON = /^(?<name>[^<>()]*?)\s*(?:<(?<email>[^<>]*)>)?\s*(?:\((?<url>[^()]*)\))?$/;

/** The contact `text` states, or what is wrong with it (`variable` names it). */
function contactOf(text: string, variable: string): Contact | { problem: string } {
  const form = `${variable} must be written "Name <email> (URL)", each part optional, such as "Cars HK <api@cars.example.com> (https://cars.example.com/contact)"`;
  const parts = PERSON.exec(text)?.groups;
  if (parts === undefined) return { problem: form };
  const name = parts['name'] ?? '';
  const email = parts['email']?.trim();
  const url = parts['url']?.trim();
  if (/@|:\/\//.test(name)) return { problem: `${form}: an email goes in <…>, a URL in (…)` };
  if (email !== undefined && !isEmail(email)) return { problem: `${variable}'s email must be an address such as api@cars.example.com` };
  if (url !== undefined && !isHttpUrl(url))
    return { problem: `${variable}'s URL must be an absolute http(s) URL such as https://cars.example.com/contact` };
  return { ...(name && { name }), ...(url !== undefined && { url }), ...(email !== undefined && { email }) };
}

/** A configuration variable's trimmed text, read by `read`: what it states, or its problem, said as zod says any. */
const variableOf = <T extends object>(read: (text: string) => T | { problem: string }) =>
  z
    .string()
    .trim()
    .transform((text, context): T => {
      const value = read(text);
      if (!('problem' in value)) return value;
      context.addIssue({ code: 'custom', message: value.problem, input: text });
      return z.NEVER;
    });

/** The configuration's contact variable `variable`: `Name <email> (URL)`, any of the parts, in that order. */
export const contactVariable = (variable: string) => variableOf((text) => contactOf(text, variable));

/** SPDX licence identifiers by their lower case: SPDX matches identifiers without regard to case. */
const SPDX_IDS = new Map(Object.keys(spdxLicenses).map((id) => [id.toLowerCase(), id]));

/**
 * The configuration's licence variable `variable`: an SPDX licence identifier (its name from the
 * SPDX list, its URL the licence's page on spdx.org), or a name and the URL of other terms, `Name (URL)`.
 */
export const licenseVariable = (variable: string) =>
  variableOf((text): License | { problem: string } => {
    const id = SPDX_IDS.get(text.toLowerCase());
    const license = spdxLicenses[id ?? ''];
    if (id !== undefined && license !== undefined) return { name: license.name, url: `https://spdx.org/licenses/${id}.html` };
    const terms = /^(?<name>[^()]+?)\s*\((?<url>[^()]+)\)$/.exec(text)?.groups;
    if (terms?.['name'] !== undefined && terms['url'] !== undefined && isHttpUrl(terms['url'].trim()))
      return { name: terms['name'], url: terms['url'].trim() };
    return {
      problem: `${variable} must be an SPDX licence identifier such as CC-BY-4.0 (https://spdx.org/licenses/), or a name and the absolute http(s) URL of other terms, such as "Cars HK data terms (https://cars.example.com/terms)"`,
    };
  });

/**
 * What the document lacks that the linters' default rules ask for, as `info` paths: Redocly's
 * recommended `info-license`; Spectral's `info-contact`, `info-license`, `license-url` and
 * `contact-properties` (a name, a URL and an email). Empty where the publisher states both in full.
 */
export function unstatedInfo({ contact, license }: Publisher): string[] {
  // OpenAPI's order of a contact's parts.
  const parts = ['name', 'url', 'email'] as const;
  return [
    ...(contact === undefined ? ['contact'] : parts.filter((part) => contact[part] === undefined).map((part) => `contact.${part}`)),
    ...(license === undefined ? ['license'] : []),
  ];
}
