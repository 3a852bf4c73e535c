import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const WORKFLOWS_DIR = join(ROOT, '.github', 'workflows');
const require = createRequire(import.meta.url);
// js-yaml ships no type declarations; this test needs only `load`.
const { load: parseYaml } = require('js-yaml') as { load(text: string): unknown };

interface PackageJson {
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Step {
  run?: string;
  uses?: string;
}

interface Workflow {
  on: unknown;
  jobs: Record<string, { steps?: Step[]; uses?: string }>;
}

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/** The commands a package's `bin` field installs into node_modules/.bin, for every declared dependency. */
function declaredBinaries(): Set<string> {
  const names = Object.keys({ ...packageJson.dependencies, ...packageJson.devDependencies });
  const binaries = new Set<string>();
  for (const name of names) {
    const manifestPath = join(ROOT, 'node_modules', name, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      bin?: string | Record<string, string>;
    };
    if (typeof bin === 'string') binaries.add(name.split('/').at(-1)!);
    else for (const command of Object.keys(bin ?? {})) binaries.add(command);
  }
  return binaries;
}

/**
 * What a workflow's `run:` steps and `uses:` lines refer to in this repository that is missing: npm scripts
 * package.json lacks, files `node` would not find, `npx` commands no declared package installs, and local
 * reusable workflows that do not exist. Empty when everything it calls is there.
 */
function findMissingReferences(workflow: Workflow, binaries: Set<string>): string[] {
  const missing: string[] = [];
  for (const [jobName, job] of Object.entries(workflow.jobs)) {
    const uses = [job.uses, ...(job.steps ?? []).map((step) => step.uses)];
    for (const target of uses) {
      if (target?.startsWith('./') && !existsSync(join(ROOT, target)))
        missing.push(`${jobName}: workflow ${target}`);
    }
    for (const step of job.steps ?? []) {
      const run = step.run ?? '';
      for (const [, script] of run.matchAll(/\bnpm run ([\w:.-]+)/g))
        if (!(script! in packageJson.scripts)) missing.push(`${jobName}: npm script ${script}`);
      for (const [, script] of run.matchAll(/\bnpm (test|start)\b/g))
        if (!(script! in packageJson.scripts)) missing.push(`${jobName}: npm script ${script}`);
      for (const [, path] of run.matchAll(/\bnode ([\w./-]+\.[cm]?js)\b/g))
        if (!existsSync(join(ROOT, path!))) missing.push(`${jobName}: file ${path}`);
      for (const [, command] of run.matchAll(/\bnpx ([\w@/.-]+)/g))
        if (!binaries.has(command!)) missing.push(`${jobName}: npx ${command}`);
    }
  }
  return missing;
}

const workflowFiles = readdirSync(WORKFLOWS_DIR).filter((name) => /\.ya?ml$/.test(name));

describe('GitHub workflows', () => {
  it('are there: the CI and the release workflow', () => {
    expect(workflowFiles).toEqual(expect.arrayContaining(['ci.yml', 'release.yml']));
  });

  it.each(workflowFiles)(
    '%s parses as YAML into triggers and jobs with steps or a called workflow',
    (name) => {
      const workflow = parseYaml(readFileSync(join(WORKFLOWS_DIR, name), 'utf8')) as Workflow;
      expect(workflow.on).toBeDefined();
      expect(Object.keys(workflow.jobs).length).toBeGreaterThan(0);
      for (const job of Object.values(workflow.jobs))
        expect(job.uses !== undefined || (job.steps ?? []).length > 0).toBe(true);
    },
  );

  it.each(workflowFiles)(
    '%s calls only npm scripts, files, npx commands and workflows that exist',
    (name) => {
      const workflow = parseYaml(readFileSync(join(WORKFLOWS_DIR, name), 'utf8')) as Workflow;
      expect(findMissingReferences(workflow, declaredBinaries())).toEqual([]);
    },
  );

  it('runs check, dist and test:electron, the scripts the release depends on', () => {
    const ci = readFileSync(join(WORKFLOWS_DIR, 'ci.yml'), 'utf8');
    for (const script of ['check', 'dist', 'test:electron'])
      expect(ci).toMatch(new RegExp(`npm run ${script}\\b`));
  });

  it('reports a script, a file, an npx command and a workflow that are not in the repository', () => {
    const workflow = parseYaml(`
on: push
jobs:
  build:
    steps:
      - run: |
          npm run chek
          node scripts/no-such-script.mjs
          npx no-such-command
      - run: npm run check && node scripts/check.mjs --no-test && npx install-electron
  call:
    uses: ./.github/workflows/missing.yml
`) as Workflow;
    expect(findMissingReferences(workflow, declaredBinaries())).toEqual([
      'build: npm script chek',
      'build: file scripts/no-such-script.mjs',
      'build: npx no-such-command',
      'call: workflow ./.github/workflows/missing.yml',
    ]);
  });
});
