import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_ASSUMPTIONS } from '../../../../electron/shared/api';

const apiDoc = readFileSync(new URL('../../../../docs/api.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const section = apiDoc.slice(apiDoc.indexOf('## API assumptions'));

describe('API assumptions', () => {
  it.each(API_ASSUMPTIONS.map((assumption) => [assumption.topic, assumption.decision]))(
    'docs/api.md lists "%s" as assumptions.ts decides it',
    (topic, decision) => {
      expect(section).toContain(`**${topic}.** ${decision.replace(/\s+/g, ' ')}`);
    },
  );
});
