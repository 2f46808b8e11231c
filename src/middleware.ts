/**
 * Astro's i18n routing is `manual` (astro.config.mjs), which asks for a middleware of the site's
 * own: every page exists in each language and the default language is not prefixed, so none of
 * Astro's i18n redirects or fallbacks apply, and the pages pass through as they are.
 */
import { defineMiddleware } from 'astro:middleware';

export const onRequest = defineMiddleware((_context, next) => next());
