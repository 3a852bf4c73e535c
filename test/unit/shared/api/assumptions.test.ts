import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_ASSUMPTIONS } from '../../../../electron/shared/api';

const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const section = readme.slice(readme.indexOf('## API assumptions'));

describe('API assumptions', () => {
  it.each(API_ASSUMPTIONS.map((assumption) => [assumption.topic, assumption.decision]))(
    'README lists "%s" as assumptions.ts decides it',
    (topic, decision) => {
      expect(section).toContain(`**${topic}.** ${decision.replace(/\s+/g, ' ')}`);
    },
  );
});
