/** `{ max }` for lower-is-better metrics (e.g. staleValueLeakageRate), `{ min }` otherwise; both allowed. */
declare interface Bound {
    min?: number;
    max?: number;
}

/** The hits among the cases of a rate: the exact numbers a `Rate` rounds. */
declare interface Count {
    hits: number;
    cases: number;
}

/** What a detection's precision, recall and F1 come from. */
declare interface DetectionCounts {
    tp: number;
    fp: number;
    fn: number;
}

/** Precision, recall and F1 of predicting a set of states, with the counts they come from. */
declare interface DetectionMetrics {
    /** tp / (tp + fp); null when nothing was predicted in the set. */
    precision: number | null;
    /** tp / (tp + fn); null when gold is never in the set. */
    recall: number | null;
    /** 2tp / (2tp + fp + fn); null when all three are 0. */
    f1: number | null;
    tp: number;
    fp: number;
    fn: number;
}

/** The twelve episode families, in the order the dataset lists them. */
declare const FAMILIES: readonly ["replacement", "reversal", "withdrawal", "add_vs_replace", "scoped_change", "future_effective", "expiration", "retro_correction", "delayed_arrival", "duplicate_event", "third_party_quote", "ambiguity"];

/** One of FAMILIES. */
declare type Family = (typeof FAMILIES)[number];

/** Thresholds per family: `{ expiration: { expirationAccuracy: { min: 1 } } }`. */
declare type FamilyThresholds = Partial<Record<Family, Thresholds>>;

/** The reporter's and watch plugin's module names, as Jest resolves them from the project. */
export declare const JEST_REPORTER = "timegrounded/jest/reporter";

export declare const JEST_WATCH_PLUGIN = "timegrounded/jest/watch-plugin";

/** The Jest config keys this helper touches; everything else passes through unchanged. */
export declare interface JestConfigLike {
    reporters?: (string | [string, Record<string, unknown>])[];
    watchPlugins?: (string | [string, Record<string, unknown>])[];
    watchPathIgnorePatterns?: string[];
    [key: string]: unknown;
}

/** The camelCase name of a gated metric, e.g. `staleValueLeakageRate`. */
declare type MetricName = keyof typeof METRICS;

/** Every gated metric, in the order reports and option errors list them. */
declare const METRICS: {
    readonly transitionSuccessRate: {
        readonly reportKey: "transition_success_rate";
        readonly label: "Transition success";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly familyColumn: "Transition success";
        readonly counts: "transitions";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly currentStateAccuracy: {
        readonly reportKey: "current_state_accuracy";
        readonly label: "Current-state accuracy";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly familyColumn: "Current-state acc.";
        readonly counts: "current answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly staleValueLeakageRate: {
        readonly reportKey: "stale_value_leakage_rate";
        readonly label: "Stale-value leakage";
        readonly better: "lower";
        readonly kind: "rate";
        readonly headline: true;
        readonly familyColumn: "Stale leakage ↓";
        readonly counts: "stale-risk answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly unaffectedFactRetention: {
        readonly reportKey: "unaffected_fact_retention";
        readonly label: "Unaffected-fact retention";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly familyColumn: "Retention";
        readonly counts: "control answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly clarificationPrecision: {
        readonly reportKey: "clarification";
        readonly detection: "Clarification";
        readonly label: "Clarification precision";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: false;
        readonly whenUnmeasured: "no cases: the store never answered needs_clarification in this run";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly clarificationRecall: {
        readonly reportKey: "clarification";
        readonly detection: "Clarification";
        readonly label: "Clarification recall";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly clarificationF1: {
        readonly reportKey: "clarification";
        readonly detection: "Clarification";
        readonly label: "Clarification F1";
        readonly better: "higher";
        readonly kind: "f1";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly abstentionPrecision: {
        readonly reportKey: "abstention";
        readonly detection: "Abstention";
        readonly label: "Abstention precision";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: false;
        readonly whenUnmeasured: "no cases: the store never answered unknown, withdrawn or expired in this run";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly abstentionRecall: {
        readonly reportKey: "abstention";
        readonly detection: "Abstention";
        readonly label: "Abstention recall";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly abstentionF1: {
        readonly reportKey: "abstention";
        readonly detection: "Abstention";
        readonly label: "Abstention F1";
        readonly better: "higher";
        readonly kind: "f1";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly historicalAccuracy: {
        readonly reportKey: "historical_accuracy";
        readonly label: "Historical accuracy";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly counts: "history answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly expirationAccuracy: {
        readonly reportKey: "expiration_accuracy";
        readonly label: "Expiration accuracy";
        readonly better: "higher";
        readonly kind: "rate";
        readonly headline: true;
        readonly counts: "expired-fact answers";
        readonly read: (m: TivarqMetrics) => MetricValue;
        readonly ratio: (c: QualityCounts) => RatioCounts;
    };
    readonly queryLatencyP50Ms: {
        readonly reportKey: "query_latency_ms";
        readonly label: "Query latency p50";
        readonly better: "lower";
        readonly kind: "latency";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => {
            value: number | null;
            cases: number;
        };
    };
    readonly queryLatencyP95Ms: {
        readonly reportKey: "query_latency_ms";
        readonly label: "Query latency p95";
        readonly better: "lower";
        readonly kind: "latency";
        readonly headline: false;
        readonly read: (m: TivarqMetrics) => {
            value: number | null;
            cases: number;
        };
    };
};

/** A metric's value and its denominator (`value` is null when there were no cases). */
declare interface MetricValue {
    value: number | null;
    cases: number;
}

/**
 * The exact counts behind the quality metrics of some rows: every rate's hits
 * and cases, every detection's tp, fp and fn. Counts add up over disjoint sets
 * of episodes (transition success depends on an episode's rows alone), which is
 * what pooling repetitions and the episode bootstrap rely on.
 */
declare interface QualityCounts {
    transition_success_rate: Count;
    current_state_accuracy: Count;
    stale_value_leakage_rate: Count;
    unaffected_fact_retention: Count;
    clarification: DetectionCounts;
    abstention: DetectionCounts;
    historical_accuracy: Count;
    expiration_accuracy: Count;
}

/** A rate with its denominator. `score` is null when `cases` is 0. */
declare interface Rate {
    score: number | null;
    cases: number;
}

/** The numerator and denominator of a ratio of sums: a rate's hits and cases, an F1's 2·tp and 2·tp + fp + fn. */
declare interface RatioCounts {
    numerator: number;
    denominator: number;
}

/** How the baseline gates metrics. */
declare interface RegressionPolicy {
    /** Metrics gated against the baseline. @default every quality metric recorded in the baseline */
    metrics?: MetricName[] | 'none';
    /** Allowed worsening before a metric counts as regressed, for all metrics or per metric. @default 0 */
    tolerance?: number | Partial<Record<MetricName, number>>;
    /** Also gate each family's metrics against the baseline. @default false */
    families?: boolean;
}

/** Bounds by metric: `{ staleValueLeakageRate: { max: 0.05 }, transitionSuccessRate: { min: 0.9 } }`. */
declare type Thresholds = Partial<Record<MetricName, Bound>>;

/** Options of the reporter (and of the `timegrounded()` plugin, which passes them on). */
export declare interface TimegroundedReporterOptions {
    /** Bounds per metric: `{ staleValueLeakageRate: { max: 0.05 }, transitionSuccessRate: { min: 0.9 } }`. @default none */
    thresholds?: Thresholds;
    /** Bounds per family and metric: `{ expiration: { expirationAccuracy: { min: 1 } } }`. @default none */
    familyThresholds?: FamilyThresholds;
    /** Baseline file, relative to the project root; `false` turns baselines off. @default 'timegrounded.baseline.json' */
    baseline?: string | false;
    /** Which metrics the baseline gates, with what tolerance. @default every quality metric in the baseline, tolerance 0 */
    regression?: RegressionPolicy;
    /** Where report.json and predictions.jsonl go, relative to the project root. @default '.timegrounded' */
    outputDir?: string;
    /**
     * The HTML report: its path relative to the project root, or `false` for none. With several suites each gets
     * its own page, in a folder named after the suite beside this path (as report.json does in `outputDir`).
     * @default 'report.html' in `outputDir`
     */
    html?: string | false;
    /** Seed of the bootstrap interval. @default 20261001 (the dataset seed) */
    seed?: number;
    /** Bootstrap resamples. @default 1000 */
    resamples?: number;
    /** Colour the printed report. @default whether stdout is a terminal */
    color?: boolean;
}

/** Every metric of section 5, over one set of rows. */
declare interface TivarqMetrics {
    /** Primary metric: transitions whose pre and post answers, controls and no-leak all hold. Higher is better. */
    transition_success_rate: Rate;
    /** Correct answers among answered non-history rows. Higher is better. */
    current_state_accuracy: Rate;
    /** Invalidated values returned as current, among stale-risk rows. Lower is better. */
    stale_value_leakage_rate: Rate;
    /** Correct control answers (phase not `pre`) among answered non-history rows. Higher is better. */
    unaffected_fact_retention: Rate;
    /** Detection of `needs_clarification`. */
    clarification: DetectionMetrics;
    /** Detection of `unknown`, `withdrawn` and `expired`. */
    abstention: DetectionMetrics;
    /** Correct answers among answered `history` rows. */
    historical_accuracy: Rate;
    /** Correct answers among answered rows whose gold state is `expired`. */
    expiration_accuracy: Rate;
    /** Answer latency over answered rows (percentile index rule), 3 decimals; `cases` counts the latencies. */
    query_latency_ms: {
        p50: number | null;
        p95: number | null;
        cases: number;
    };
    /** Time until a post-change answer is right, over the answered rows that carry a lag (post-change target rows). */
    update_lag_ms: {
        observed_mean: number | null;
        observed_p95: number | null;
        /** Rows with a measured, uncensored lag. */
        observed: number;
        /** Rows still wrong after the last poll. */
        censored: number;
        /** Answered rows carrying a lag: the answered target rows of phase `post`. */
        post_change_cases: number;
    };
    /** Token counts the adapter reported inside `prediction.usage` (never part of correctness). */
    reported_tokens: {
        prompt: number;
        completion: number;
        cases_with_usage: number;
    };
    /** Cost the adapter reported inside `prediction.cost_usd`, total rounded to 8 decimals (0 when no row reported one). */
    reported_cost_usd: {
        total: number;
        cases_with_cost: number;
    };
}

/**
 * `module.exports = withTimegrounded({ preset: 'ts-jest' }, { thresholds: { staleValueLeakageRate: { max: 0.05 } } })`.
 * Throws `ReporterOptionError` naming a bad option before any test runs, and
 * `RunnerVersionError` when the installed Jest is older than 29.7.
 */
export declare function withTimegrounded<T extends JestConfigLike>(config: T, options?: WithTimegroundedOptions): T;

/** Options of `withTimegrounded`: the reporter's, plus the watch-mode key. */
export declare interface WithTimegroundedOptions extends TimegroundedReporterOptions {
    /** The watch-mode key that records the baseline. @default 'b' */
    recordKey?: string;
}

export { }
