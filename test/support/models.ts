/** A valid record for unit tests: a 5-seat, 1998 cc automatic priced 300,000–350,000, with a logo. */
import type { CarModel } from '../../src/data/schema.ts';
import { AUTO, MANUAL, type Entry } from '../../src/listing/search.ts';

export const carModel = (id: number, name: string, overrides: Partial<CarModel> = {}): CarModel => ({
  id,
  combined_car_model: name,
  combined_car_model_unique_id: id,
  min_seat: 5,
  max_seat: 5,
  min_engine_size: 1998,
  max_engine_size: 1998,
  min_price: 300000,
  max_price: 350000,
  has_operation_type_auto: true,
  has_operation_type_hand: false,
  capture_combined_car_model_yearly_unique_id: id,
  logo: 'media/brand/logo/x.svg',
  ...overrides,
});

/** The search index's row of a record at `position`, as src/outputs/search-files.ts writes it. */
export const entryOf = (record: CarModel, position: number): Entry => [
  position,
  record.combined_car_model,
  record.min_seat,
  record.max_seat,
  record.min_engine_size,
  record.max_engine_size,
  record.min_price,
  record.max_price,
  (record.has_operation_type_auto ? AUTO : 0) | (record.has_operation_type_hand ? MANUAL : 0),
  record.logo,
];
