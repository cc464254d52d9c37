import stylistic from '@stylistic/eslint-plugin'
import tseslint from 'typescript-eslint'

// Which folders of src/ each folder may import from (besides itself): the layering of the service.
// A folder may import only what sits below it, so there is no cycle between folders.
const LAYERS = {
  shared: [],
  config: ['shared'],
  pipeline: ['shared'],
  analysis: ['shared'],
  broker: ['shared', 'config', 'pipeline'],
  state: ['shared', 'pipeline', 'analysis'],
  sinks: ['shared', 'pipeline', 'state'],
  auth: ['shared', 'state'],
  http: ['shared', 'state'],
  services: ['shared', 'pipeline', 'analysis', 'sinks', 'state'],
  consumers: ['shared', 'broker', 'pipeline', 'sinks', 'state'],
  jobs: ['shared', 'pipeline', 'analysis', 'sinks', 'state', 'services'],
  edge: ['shared', 'config', 'broker', 'pipeline', 'state', 'auth', 'http'],
  admin: ['shared', 'pipeline', 'analysis', 'state', 'auth', 'http', 'services'],
  app: [
    'shared',
    'config',
    'broker',
    'pipeline',
    'state',
    'sinks',
    'auth',
    'http',
    'services',
    'consumers',
    'jobs',
    'edge',
    'admin',
  ],
  cli: ['shared', 'config', 'state', 'services', 'app', 'main.ts'],
}
const FOLDERS = [...Object.keys(LAYERS), 'main.ts']

const boundaries = Object.entries(LAYERS).map(([folder, allowed]) => {
  const forbidden = FOLDERS.filter((f) => f !== folder && !allowed.includes(f)).map((f) => f.replace('.ts', '\\.js'))
  return {
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`,
              message: `src/${folder} may import only from ${allowed.length ? allowed.join(', ') : 'itself'} (see the layers in eslint.config.js)`,
            },
          ],
        },
      ],
    },
  }
})

export default tseslint.config(
  // console/src/api-types.ts is generated (scripts/console-types.mjs).
  { ignores: ['dist/', 'node_modules/', '.sluice/', 'bench/results/', 'console/src/api-types.ts'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@stylistic': stylistic },
    rules: {
      // Prettier wraps code at 120 (.prettierrc.json); comments are held to it here. A string or
      // template literal (a message, a query) may run longer rather than be cut mid-sentence.
      '@stylistic/max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Fastify hooks and handlers are async by contract (a thrown error becomes the answer); many
      // need no await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  // Tests read JSON answers (typed any) and assert on them; the assertion is the check.
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/*.mjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
  // The console is browser code: it talks to Sluice through the public API only, never by importing the server.
  {
    files: ['console/**/*.ts', 'console/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(src|test|bench)(/|$)',
              message: 'the console imports nothing of the server: it calls the public API',
            },
          ],
        },
      ],
    },
  },
  ...boundaries,
)
