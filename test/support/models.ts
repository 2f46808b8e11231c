/** A valid record for unit tests: a 5-seat, 1998 cc automatic priced 300,000–350,000, with a logo. */
import type { CarModel } from '../../src/data/schema.ts';

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
