// Lint: TypeScript rules plus the layer rules of docs/ARCHITECTURE.md (imports flow downward only).
import reactHooks from 'eslint-plugin-react-hooks';
import importCycles from './scripts/eslint-no-import-cycles.mjs';
import tseslint from 'typescript-eslint';

const layer = (files, forbidden, message) => ({
  files,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      { patterns: forbidden.map((group) => ({ group: [group], message, allowTypeImports: false })) },
    ],
  },
});

// The typed rules' types (below): each file's from the program the typecheck checks it in. A plain
// `eslint` builds these programs itself (parserOptions.project); under `npm run lint`,
// scripts/typecheck-and-eslint.mjs has built and checked them for the typecheck and hands them over here
// (parserOptions.programs), so that each is built and type-checked once.
const CHECKED_PROGRAMS = globalThis[Symbol.for('fixdesk.typecheckedPrograms')];
const typesFrom = (project) =>
  CHECKED_PROGRAMS?.has(project) ? { programs: [CHECKED_PROGRAMS.get(project)] } : { project, tsconfigRootDir: import.meta.dirname };

const NODE_IO = [
  'node:fs',
  'node:fs/*',
  'node:net',
  'node:tls',
  'node:http',
  'node:https',
  'node:child_process',
  'fs',
  'net',
  'pg',
  '@electric-sql/*',
];

export default tseslint.config(
  // Generated sources are linted like the rest: the layer rules must see their imports too.
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'bench/.build/**', 'bench/.scratch/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  // An async server and an async browser app: a promise nobody awaits or catches loses its error (an
  // unhandled rejection ends the server's process; in the browser the user is told nothing), and a
  // promise where a plain callback is expected (an onClick, an onSubmit) is never awaited. A handler
  // that reports its own failures is marked `void`. These two rules need the types, so they read the
  // sources only (tests run node:test's it/describe, whose promises the runner keeps). Their types come
  // from three programs, those of the typecheck: tsconfig.node.json's for the Node side, apps/web's and
  // packages/client's for the browser side (each with the DOM). Not `projectService`, which took each
  // file's nearest tsconfig.json: six overlapping programs (each package's and each app's, each parsing
  // and checking again the packages it imports).
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/{db,fix,client,domain}/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    languageOptions: { parserOptions: typesFrom('./tsconfig.node.json') },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    languageOptions: { parserOptions: typesFrom('./apps/web/tsconfig.json') },
  },
  {
    files: ['packages/client/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    languageOptions: { parserOptions: typesFrom('./packages/client/tsconfig.json') },
  },
  // A file a reader can hold in mind: 600 lines of code at most (comments and blank lines not counted),
  // but for generated code and the FIX codec's hand-unrolled encoder.
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    ignores: ['**/*.generated.ts', 'packages/fix/src/codec/**'],
    rules: { 'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }] },
  },
  // No import cycles between the modules of a package (relative imports, type-only ones included).
  {
    files: ['packages/**/*.{ts,tsx}', 'apps/**/*.{ts,tsx}'],
    plugins: { fixdesk: importCycles },
    rules: { 'fixdesk/no-import-cycles': 'error' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  layer(['packages/protocol/**'], ['@fixdesk/*', ...NODE_IO], 'protocol is the bottom layer: types and schemas only'),
  // fix-codes is the bottom layer too: generated constants that import nothing at all.
  {
    files: ['packages/fix-codes/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['ImportDeclaration', 'ImportExpression', 'ExportAllDeclaration', 'ExportNamedDeclaration[source]'].map((selector) => ({
          selector,
          message: '@fixdesk/fix-codes is dependency-free: generated constants only (packages/fix/scripts/gen-fix-dictionary.ts)',
        })),
      ],
    },
  },
  layer(
    ['packages/domain/**'],
    ['@fixdesk/db', '@fixdesk/db/*', '@fixdesk/fix', '@fixdesk/fix/*', '@fixdesk/server', '@fixdesk/web', ...NODE_IO],
    'domain is pure: no I/O, no engine, no database',
  ),
  layer(
    ['packages/fix/**'],
    [
      '@fixdesk/db',
      '@fixdesk/db/*',
      '@fixdesk/server',
      '@fixdesk/web',
      '@fixdesk/domain',
      '@fixdesk/domain/*',
      '@fixdesk/protocol',
      '@fixdesk/client',
      'pg',
      '@electric-sql/*',
    ],
    'the FIX engine knows nothing of our database, domain or HTTP: of our packages it imports @fixdesk/fix-codes only',
  ),
  layer(['packages/db/**'], ['@fixdesk/server', '@fixdesk/web'], 'db sits below the apps'),
  layer(
    ['packages/client/**'],
    ['@fixdesk/db', '@fixdesk/db/*', '@fixdesk/fix', '@fixdesk/server', '@fixdesk/web', 'react', 'react-dom', '@mantine/*', ...NODE_IO],
    'the client is framework-free: it talks to the server over HTTP/WS with protocol types and domain rules only',
  ),
  layer(
    ['apps/web/**'],
    ['@fixdesk/db', '@fixdesk/db/*', '@fixdesk/fix', '@fixdesk/server', ...NODE_IO],
    'the web app talks to the server over HTTP/WS only',
  ),
  // A screen's files are its own: what two screens share lives in components/ (or services/). Only the
  // router's list of screens (app/screens.ts) loads one. The web layer's rule is repeated here, since
  // this entry replaces it for these files.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/screens/blotter/**', 'apps/web/src/app/screens.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...['@fixdesk/db', '@fixdesk/db/*', '@fixdesk/fix', '@fixdesk/server', ...NODE_IO].map((group) => ({
              group: [group],
              message: 'the web app talks to the server over HTTP/WS only',
            })),
            {
              regex: '(^|/)screens/blotter/|^\\.\\./(\\.\\./)*blotter/',
              message: 'the blotter screen is its own: move what you need from it to components/',
            },
          ],
        },
      ],
    },
  },
  layer(['apps/server/**'], ['@fixdesk/web'], 'the server does not import the web app'),
  // SQL belongs to packages/db: everything else reads and writes through its repositories. Tests and
  // benchmarks may look at the database directly to check what the code under test did.
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/{protocol,domain,fix}/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='query']",
          message: 'SQL lives in packages/db: call (or add) a repository function there instead of .query()',
        },
      ],
    },
  },
);
