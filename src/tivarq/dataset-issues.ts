/**
 * What the TIVARQ validator reports, as data: the stable code of each problem and the collector every
 * step of a validation adds to.
 */
import { type Issue, IssueCollector } from './issues.js'

/** Stable identifiers of the problems the validator reports. */
export type DatasetIssueCode =
  | 'missing_directory'
  | 'missing_file'
  | 'unreadable_file'
  | 'file_too_large'
  | 'line_too_long'
  | 'missing_manifest'
  | 'invalid_manifest'
  | 'missing_hash'
  | 'hash_mismatch'
  | 'invalid_utf8'
  | 'byte_order_mark'
  | 'crlf_line_endings'
  | 'blank_line'
  | 'truncated_line'
  | 'missing_final_newline'
  | 'invalid_json'
  | 'missing_field'
  | 'unknown_field'
  | 'unknown_value'
  | 'invalid_field'
  | 'wrong_split'
  | 'duplicate_id'
  | 'unknown_episode'
  | 'index_out_of_bounds'
  | 'gold_mismatch'
  | 'manifest_mismatch'
  | 'canonical_counts'

/** One problem found in a TIVARQ directory: an `Issue` with a `DatasetIssueCode` (never keyed by entry). */
export type DatasetIssue = Issue<DatasetIssueCode>

/** The validator's issues, added field by field in the order of `DatasetIssue` (which `validate --json` prints). */
export class DatasetIssues extends IssueCollector<DatasetIssueCode> {
  add(code: DatasetIssueCode, file: string, line: number | null, path: string | null, value: unknown, message: string): void {
    this.push({ code, file, line, path, value, message })
  }
}
