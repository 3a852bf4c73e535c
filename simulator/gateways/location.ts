import { noise } from '../random';
import type { CommandHandlers } from './context';

/** Location commands: the GPS fix, wandering by a few metres as a real receiver's does. */
export const locationCommands: CommandHandlers<'getGpsCoordinates'> = {
  getGpsCoordinates({ state, now }) {
    const bucket = Math.floor(now / 5_000);
    const jitter = (axis: string) => noise(`${state.entity.id}:gps:${axis}`, bucket) * 0.00003;
    return {
      latitude: Number((state.entity.latitude + jitter('lat')).toFixed(6)),
      longitude: Number((state.entity.longitude + jitter('lon')).toFixed(6)),
      altitude: Math.round(1040 + noise(`${state.entity.id}:gps:alt`, bucket) * 3),
      fix: '3D',
      satellites: 8 + Math.round((noise(`${state.entity.id}:gps:sat`, bucket) + 1) * 2),
      timestamp: now,
    };
  },
};
