/**
 * Import boundaries between the layers (docs/architecture.md): the domain is pure and depends on
 * nothing outside it; use cases (shared/application) depend on the domain and its ports, never on
 * HTTP or a function; adapters implement ports without knowing HTTP or use cases; each Lambda function stands
 * alone; the CDK app names function entry files by path, never imports them. Run by `npm run lint`.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'shared/domain holds pure logic: no adapters, HTTP, routes, application code, functions, CDK or local emulators.',
      severity: 'error',
      from: { path: '^shared/domain/' },
      to: { path: '^(shared/(adapters|http|routes|application)|application|functions|lib|local|bin)/' },
    },
    {
      name: 'application-not-to-http-or-functions',
      comment:
        'Use cases speak the domain and its ports: HTTP (problems, requests, routes), function wiring, CDK and local emulators stay outside.',
      severity: 'error',
      from: { path: '^shared/application/' },
      to: { path: '^(shared/(http|routes)|functions|lib|local|bin)/' },
    },
    {
      name: 'adapters-not-to-application',
      comment: 'Adapters implement ports (declared in the domain or an application folder, imported as types only) and never call a use case; use cases are wired in functions/.',
      severity: 'error',
      from: { path: '^shared/adapters/' },
      to: { path: '^shared/application/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'adapters-know-no-http',
      comment: 'Adapters implement ports; HTTP concerns (problems, pipeline, auth) stay in shared/http.',
      severity: 'error',
      from: { path: '^shared/adapters/' },
      to: { path: '^shared/http/' },
    },
    {
      name: 'no-sibling-functions',
      comment: "A Lambda function imports shared code, never another function's folder.",
      severity: 'error',
      from: { path: '^functions/([^/]+)/' },
      to: { path: '^functions/[^/]+/', pathNot: '^functions/$1/' },
    },
    {
      name: 'lib-not-to-functions',
      comment: 'The CDK app refers to function entry files by path (bundled by esbuild), never by import.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^functions/' },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles hide which module owns a type or a constant; move it to its owner.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|\\.data|reports|shared/data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
