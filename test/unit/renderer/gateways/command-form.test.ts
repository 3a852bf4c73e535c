import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, gatewayCommands } from '../../../../electron/shared/api';
import {
  apiNameOf,
  describeCommandForm,
  initialValues,
  leafFields,
  readCommandForm,
  ROOT_KEY,
  type FormValues,
} from '../../../../renderer/src/lib/components/command-form';

function formOf(name: keyof typeof gatewayCommands) {
  const definition = gatewayCommands[name];
  const spec = describeCommandForm(definition);
  return { definition, spec, values: initialValues(spec) };
}

function read(name: keyof typeof gatewayCommands, typed: FormValues) {
  const { definition, spec, values } = formOf(name);
  return readCommandForm(definition, spec, { ...values, ...typed });
}

describe('command form builder', () => {
  it('builds a form for every command of the catalogue', () => {
    for (const name of COMMAND_NAMES) {
      expect(() => describeCommandForm(gatewayCommands[name])).not.toThrow();
    }
  });

  it('offers only a Run button for commands with an empty body or no body', () => {
    expect(formOf('reboot').spec).toEqual({ kind: 'run-only' });
    expect(formOf('resetRadioStatisticsCounters').spec).toEqual({ kind: 'run-only' });
  });

  it('sends {} for an empty-body command and nothing for a no-body command', () => {
    expect(read('reboot', {})).toEqual({ ok: true, request: {} });
    expect(read('resetRadioStatisticsCounters', {})).toEqual({ ok: true, request: undefined });
  });

  it('gives an object request one field per property, numbers as number fields', () => {
    const { spec } = formOf('ping');
    expect(spec.kind).toBe('fields');
    const fields = spec.kind === 'fields' ? spec.fields : [];
    expect(fields.map((field) => [field.key, field.kind])).toEqual([
      ['packetsCount', 'number'],
      ['destination', 'text'],
    ]);
  });

  it('gives a bare-integer body one number field', () => {
    const { spec } = formOf('deleteWmApn');
    expect(spec).toMatchObject({ kind: 'single', field: { kind: 'number', key: ROOT_KEY } });
    expect(read('deleteWmApn', { [ROOT_KEY]: '3' })).toEqual({ ok: true, request: 3 });
  });

  it('offers an enum as a choice of its values', () => {
    const { spec } = formOf('setFirewallConfiguration');
    const leaves = spec.kind === 'fields' ? leafFields(spec.fields) : [];
    expect(leaves.find((field) => field.key === 'enabled')?.kind).toBe('boolean');
    expect(leaves.find((field) => field.key === 'ping.limit.pingPerMinLimit')?.kind).toBe('number');
    expect(leaves.find((field) => field.key === 'filters')?.kind).toBe('json');
  });

  it('converts typed numbers and sends the request the schema accepts', () => {
    expect(read('ping', { packetsCount: '4', destination: '8.8.8.8' })).toEqual({
      ok: true,
      request: { packetsCount: 4, destination: '8.8.8.8' },
    });
  });

  it("puts the schema's own message next to each failing field", () => {
    const reading = read('ping', { packetsCount: '0', destination: 'http://x' });
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.errors.packetsCount).toBe('Packets count must be at least 1');
    expect(reading.errors.destination).toMatch(/host name or an IP address/);
  });

  it('says a number field holding text must be a whole number', () => {
    const reading = read('getRadioStatistics', { index: 'two' });
    expect(reading).toEqual({ ok: false, errors: { index: 'Index must be a whole number' } });
  });

  it('refuses invalid JSON in a JSON field with a message next to it', () => {
    const reading = read('modifyWmPDP_Profiles', { [ROOT_KEY]: '{oops' });
    expect(reading).toEqual({ ok: false, errors: { [ROOT_KEY]: 'must be valid JSON' } });
  });

  it('builds nested objects from grouped fields', () => {
    const { spec } = formOf('setFirewallConfiguration');
    const leaves = spec.kind === 'fields' ? leafFields(spec.fields) : [];
    const typed: FormValues = Object.fromEntries(
      leaves.filter((field) => field.kind === 'number').map((field) => [field.key, '5']),
    );
    const reading = read('setFirewallConfiguration', { ...typed, enabled: true });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.request).toMatchObject({
      enabled: true,
      doSPrevention: { enabled: false, perMinLimit: 5, burstLimit: 5 },
      ping: { limit: { pingPerMinLimit: 5 } },
      filters: [],
    });
  });

  it('refuses a required text left empty', () => {
    const reading = read('createBackup', { description: '   ' });
    expect(reading).toEqual({ ok: false, errors: { description: 'Description must not be empty' } });
  });

  it('labels each field in words, with its API name beside it where the words differ', () => {
    const { spec } = formOf('setFirewallConfiguration');
    const fields = spec.kind === 'fields' ? spec.fields : [];
    const labelled = (list: typeof fields): string[][] =>
      list.flatMap((field) => [
        [field.label, apiNameOf(field) ?? ''],
        ...(field.kind === 'group' ? labelled(field.fields) : []),
      ]);
    expect(labelled(fields)).toEqual(
      expect.arrayContaining([
        ['Enabled', ''],
        ['DoS prevention', 'doSPrevention'],
        ['Limit per minute', 'perMinLimit'],
        ['Burst limit', 'burstLimit'],
        ['SSH', ''],
        ['Ping limit per minute', 'pingPerMinLimit'],
      ]),
    );
  });

  it('keeps the API name out of the label of a whole-body field', () => {
    const { spec } = formOf('deleteWmApn');
    expect(spec.kind === 'single' && [spec.field.label, apiNameOf(spec.field)]).toEqual(['Index', undefined]);
  });
});
