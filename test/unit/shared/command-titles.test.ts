import { describe, expect, it } from 'vitest';
import { COMMAND_TITLES, matchesCommandFilter } from '../../../electron/shared/api/command-titles';
import { COMMAND_NAMES, gatewayCommands } from '../../../electron/shared/api/commands';

describe('command titles', () => {
  it('gives every command a title in words, none an API name', () => {
    for (const name of COMMAND_NAMES) {
      expect(COMMAND_TITLES[name], name).toMatch(/^[A-Z][a-z]+ /);
      expect(COMMAND_TITLES[name]).not.toContain(name);
    }
  });

  it('finds a command by its title, its API name or its summary, ignoring case', () => {
    const command = gatewayCommands.getWmPDP_Profiles;
    const title = COMMAND_TITLES.getWmPDP_Profiles;
    expect(title).toBe('Read PDP profiles');
    for (const filter of ['pdp profiles', 'GETWMPDP', 'read the pdp']) {
      expect(matchesCommandFilter(command, title, filter), filter).toBe(true);
    }
    expect(matchesCommandFilter(command, title, 'firewall')).toBe(false);
  });
});
