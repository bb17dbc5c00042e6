/** The self-contained HTML report: the view model it shows, the pure renderer, its error. */
export { renderReportPage } from './render.js'
export { HtmlReportError } from './errors.js'
export { FAILURE_KINDS } from './page-data.js'
export type {
  PageData,
  FailureKind,
  TivarqPage,
  TimeGroundedPage,
  HeadlineCard,
  FamilyChart,
  FamilyPoint,
  Comparison,
  ComparisonCell,
  Spread,
  EpisodeView,
  EventView,
  FailingProbe,
  Change,
  Better,
  TimeGroundedArm,
} from './page-data.js'
