/**
 * Spend accounting of one probe: the tokens and cost its answers reported, written into its
 * prediction. Its own file: it sums over re-asks, which the row builders know nothing of.
 */
import type { StoreAnswer } from '../adapters/types.js'
import type { Prediction } from '../tivarq/results.js'

/**
 * Tokens and cost the adapter reported for one probe, summed over the first
 * answer and every update-lag re-ask: they were all spent, so a report that
 * left re-asks out would understate what a run cost. A field is recorded only
 * when some answer reported it.
 */
export class Spending {
  private prompt: number | undefined
  private completion: number | undefined
  private cost: number | undefined

  add(answer: StoreAnswer): void {
    if (answer.usage) {
      if (answer.usage.promptTokens !== undefined) this.prompt = (this.prompt ?? 0) + answer.usage.promptTokens
      if (answer.usage.completionTokens !== undefined) this.completion = (this.completion ?? 0) + answer.usage.completionTokens
    }
    if (answer.costUsd !== undefined) this.cost = (this.cost ?? 0) + answer.costUsd
  }

  /** Into the prediction, where upstream keeps what the adapter reported. */
  record(prediction: Prediction): void {
    if (this.prompt !== undefined || this.completion !== undefined) {
      prediction.usage = {}
      if (this.prompt !== undefined) prediction.usage.prompt_tokens = this.prompt
      if (this.completion !== undefined) prediction.usage.completion_tokens = this.completion
    }
    if (this.cost !== undefined) prediction.cost_usd = this.cost
  }
}
