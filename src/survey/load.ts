// Loads the survey chunk. From the source this is a plain dynamic import of the survey modules;
// scripts/build.mjs replaces this module in the bundles: the Node entries and the CLI import
// dist/survey.js beside them through a specifier that browser bundlers do not follow, and the
// Workers entries reject (no files, no worker threads there).

export function loadSurveyChunk(): Promise<typeof import('./index.js')> {
  return import('./index.js')
}
