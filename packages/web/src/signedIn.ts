// The signed-in chrome and pages in one module: after sign-in they load together, as one file instead of one per page
// and per shared component (issue 24's cold list: from about 30 requests to a handful). The login page's path, the
// public pages and the chart code (loaded when a chart is on screen) keep their own files.
export { default as Shell } from './layout/Shell';
export { default as AccountPage } from './routes/AccountPage';
export { default as GetStartedPage } from './routes/GetStartedPage';
export { default as PlanPage } from './routes/PlanPage';
export { default as ApiKeysPage } from './routes/ApiKeysPage';
export { default as ApiKeyInfoPage } from './routes/ApiKeyInfoPage';
export { default as IntegrationsPage } from './routes/IntegrationsPage';
export { default as CreateIntegrationPage } from './routes/CreateIntegrationPage';
export { default as ProjectsPage } from './routes/ProjectsPage';
export { default as ModelsPage } from './routes/ModelsPage';
export { default as RunsPage } from './routes/RunsPage';
export { default as UploadsPage } from './routes/UploadsPage';
export { default as CreateFitRunPage } from './routes/CreateFitRunPage';
export { default as CreateShrinkRunPage } from './routes/CreateShrinkRunPage';
export { default as RunDetailsPage } from './routes/RunDetailsPage';
export { default as QuoteDetailsPage } from './routes/QuoteDetailsPage';
export { default as MembersPage } from './routes/MembersPage';
export { default as AuditPage } from './routes/AuditPage';
export { default as UsagePage } from './routes/UsagePage';
export { default as WebhooksPage } from './routes/WebhooksPage';
