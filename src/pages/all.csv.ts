import type { APIRoute } from 'astro';
import { getDataset } from '../lib/dataset.ts';
import { exportCsv } from '../lib/export.ts';

/** Every record as CSV in the input format. */
export const GET: APIRoute = () =>
  new Response(exportCsv(getDataset().records), { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
