import { describe, expect, it } from 'vitest';
import {
  describeDuration,
  toHumanUnits,
  toSeconds,
} from '../../../../renderer/src/views/customer/token-lifetimes';

describe('token lifetime units', () => {
  it('shows a lifetime in the largest unit that divides it evenly', () => {
    expect(toHumanUnits(7_200)).toEqual({ amount: '2', unit: 'hours' });
    expect(toHumanUnits(172_800)).toEqual({ amount: '2', unit: 'days' });
    expect(toHumanUnits(90)).toEqual({ amount: '1.5', unit: 'minutes' });
  });

  it('turns a typed amount and unit into seconds', () => {
    expect(toSeconds('30', 'minutes')).toBe(1_800);
    expect(toSeconds('', 'hours')).toBeUndefined();
    expect(toSeconds('abc', 'hours')).toBeNaN();
  });

  it('says a lifetime in words', () => {
    expect(describeDuration(86_400 + 1_800)).toBe('1 day 30 minutes');
    expect(describeDuration(0)).toBe('—');
  });
});
