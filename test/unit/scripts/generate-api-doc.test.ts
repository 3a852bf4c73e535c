import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_NAMES, endpoints, gatewayCommands } from '../../../electron/shared/api';
import { API_DOC_PATH, renderApiDoc } from '../../../scripts/generate-api-doc';

const committed = readFileSync(new URL(`../../../${API_DOC_PATH}`, import.meta.url), 'utf8');

describe('docs/api.md', () => {
  it('is what the generator writes from the endpoint table, the catalogue and the assumptions', async () => {
    // On a difference, run `npm run docs:api` and commit docs/api.md.
    expect(committed).toBe(await renderApiDoc());
  });

  it('gives every endpoint its method and path', () => {
    for (const name of ENDPOINT_NAMES) {
      const endpoint = endpoints[name];
      expect(committed).toContain(`### \`${name}\`\n\n\`${endpoint.method} ${endpoint.path}\``);
    }
  });

  it('gives every command its path and, for a disruptive one, what the user is told first', () => {
    for (const command of Object.values(gatewayCommands)) {
      expect(committed).toContain(`\`POST /api/gateway/{gatewayId}/command/${command.path}\``);
      if ('consequence' in command)
        expect(committed).toContain(`Asked before running: ${command.consequence}`);
    }
  });
});
