/**
 * Light and dark: the page follows `prefers-color-scheme` until the reader
 * picks one with the toggle (system → light → dark → system).
 */
import { byId } from './dom.js'

const THEMES = ['system', 'light', 'dark'] as const
type Theme = (typeof THEMES)[number]

function apply(theme: Theme, button: HTMLButtonElement): void {
  const root = document.documentElement
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
  button.textContent = `Theme: ${theme}`
  button.setAttribute('aria-label', `Colour theme: ${theme}. Press to change.`)
}

/** Wire the theme button. */
export function setUpTheme(): void {
  const button = byId<HTMLButtonElement>('tg-theme')
  let current: Theme = 'system'
  apply(current, button)
  button.addEventListener('click', () => {
    current = THEMES[(THEMES.indexOf(current) + 1) % THEMES.length] as Theme
    apply(current, button)
  })
}
