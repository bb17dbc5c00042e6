/**
 * The authored corpus, as written: twelve questions, four per type, every
 * temporal expression relative. Times are session instants (UTC); the gold is
 * not written here — the generator derives it from these times and the
 * readings. Our own conversations; nothing here is taken from another corpus.
 */
import type { Reading } from './reading.js'

/** The three question types of the corpus, four questions each. */
export const CORPUS_QUESTION_TYPES = ['temporal-as-of', 'temporal-current', 'prospective-memory'] as const
export type CorpusQuestionType = (typeof CORPUS_QUESTION_TYPES)[number]

export interface AuthoredTurn {
  role: 'user' | 'assistant'
  content: string
}

export interface AuthoredSession {
  /** ISO-8601 UTC instant the session happened. */
  at: string
  turns: AuthoredTurn[]
}

export interface AuthoredQuestion {
  id: string
  type: CorpusQuestionType
  question: string
  /** ISO-8601 UTC instant the question is asked. */
  askedAt: string
  reading: Reading
  /** Extra phrases whose turns also carry evidence (e.g. the entity that held before a change). */
  evidence?: string[]
  sessions: AuthoredSession[]
}

const user = (content: string): AuthoredTurn => ({ role: 'user', content })
const assistant = (content: string): AuthoredTurn => ({ role: 'assistant', content })

/** The twelve authored questions, in corpus order. */
export const AUTHORED_QUESTIONS: readonly AuthoredQuestion[] = [
  // ── temporal-as-of: what was true at a past moment ───────────────────────
  {
    id: 'tg-asof-01',
    type: 'temporal-as-of',
    question: 'Which gym was I a member of five weeks ago?',
    askedAt: '2024-03-25T18:30:00Z',
    reading: {
      kind: 'entity-switch',
      at: { asked: 'five weeks ago' },
      change: { said: 'a week from tomorrow', cue: 'Harbor Climbing' },
      before: 'Ironworks Gym',
      after: 'Harbor Climbing',
    },
    evidence: ['joined Ironworks Gym'],
    sessions: [
      {
        at: '2024-01-06T10:12:00Z',
        turns: [
          user('I finally joined Ironworks Gym today. The induction was brutal.'),
          assistant('Well done for signing up. Was the induction mostly machines or free weights?'),
          user('Free weights, and a trainer who loves burpees far too much.'),
        ],
      },
      {
        at: '2024-01-20T19:40:00Z',
        turns: [
          user('I am cooking dal for the neighbours tomorrow. Red lentils or yellow split peas?'),
          assistant('Red lentils cook faster and go creamy; split peas keep more bite.'),
        ],
      },
      {
        at: '2024-02-15T08:05:00Z',
        turns: [
          user('I am cancelling Ironworks. My Harbor Climbing membership starts a week from tomorrow, and Ironworks stops on the same day.'),
          assistant('A clean switch, then. Do you need climbing shoes before the first session?'),
        ],
      },
    ],
  },
  {
    id: 'tg-asof-02',
    type: 'temporal-as-of',
    question: 'Which phone carrier was I with three weeks ago?',
    askedAt: '2024-06-20T08:00:00Z',
    reading: {
      kind: 'entity-switch',
      at: { asked: 'three weeks ago' },
      change: { said: 'in four days', cue: 'Brightwave' },
      before: 'Tallow Mobile',
      after: 'Brightwave',
    },
    evidence: ['carrier is Tallow Mobile'],
    sessions: [
      {
        at: '2024-04-02T12:00:00Z',
        turns: [user('My carrier is Tallow Mobile and the signal in my flat is awful.'), assistant('Have you tried wifi calling? It often helps indoors.')],
      },
      {
        at: '2024-05-10T09:20:00Z',
        turns: [
          user('I gave up and asked Brightwave to port my number. The port completes in four days.'),
          assistant('Keep the old SIM in until the port is done, so you do not miss any texts.'),
          user('Good idea, I will.'),
        ],
      },
      {
        at: '2024-05-18T20:45:00Z',
        turns: [
          user('Our book club picked a very long novel. We meet again in three weeks.'),
          assistant('That is roughly a hundred pages a week if you start now.'),
        ],
      },
    ],
  },
  {
    id: 'tg-asof-03',
    type: 'temporal-as-of',
    question: 'Six weeks ago, was I still working night shifts?',
    askedAt: '2024-09-16T12:00:00Z',
    reading: {
      kind: 'compare',
      left: { asked: 'six weeks ago' },
      order: 'on-or-before',
      right: { said: 'this coming Friday', cue: 'night shift' },
    },
    sessions: [
      {
        at: '2024-08-05T23:50:00Z',
        turns: [
          user('Good news: I am coming off nights. My last night shift is this coming Friday, and after that I am on days for good.'),
          assistant('That will be a big change for your sleep. Plan a slow shift back over the weekend.'),
        ],
      },
      {
        at: '2024-08-20T07:15:00Z',
        turns: [
          user('My cousin is visiting in two weeks and wants to see the coast.'),
          assistant('The cliff path is lovely if the weather holds.'),
          user('I will pack rain jackets just in case.'),
        ],
      },
    ],
  },
  {
    id: 'tg-asof-04',
    type: 'temporal-as-of',
    question: 'Three weeks ago, how many days were left until my certification exam?',
    askedAt: '2024-11-28T09:10:00Z',
    reading: {
      kind: 'days',
      from: { asked: 'three weeks ago' },
      to: { said: 'eight weeks from today', cue: 'exam' },
    },
    sessions: [
      {
        at: '2024-10-01T17:15:00Z',
        turns: [
          user('I booked my pharmacology certification exam for eight weeks from today.'),
          assistant('Eight weeks is enough for two full passes through the syllabus.'),
        ],
      },
      {
        at: '2024-10-09T18:30:00Z',
        turns: [user('I repotted the fern yesterday and it already looks happier.'), assistant('Ferns like a slightly bigger pot and steady moisture.')],
      },
    ],
  },

  // ── temporal-current: what is true now ───────────────────────────────────
  {
    id: 'tg-current-01',
    type: 'temporal-current',
    question: 'Is my Quillpad trial still running?',
    askedAt: '2024-03-08T10:00:00Z',
    reading: {
      kind: 'compare',
      left: { asked: 'now' },
      order: 'before',
      right: { said: 'thirty days from today', cue: 'Quillpad' },
    },
    sessions: [
      {
        at: '2024-01-31T14:00:00Z',
        turns: [
          user('I started a free trial of Quillpad, the note-taking app. It runs out thirty days from today, a Friday.'),
          assistant('Set a reminder a few days before, in case you decide not to keep it.'),
        ],
      },
      {
        at: '2024-02-12T21:05:00Z',
        turns: [
          user('Which is better for a beginner, a ukulele or a guitar?'),
          assistant('A ukulele is gentler on the fingers; a guitar goes further in the long run.'),
        ],
      },
    ],
  },
  {
    id: 'tg-current-02',
    type: 'temporal-current',
    question: 'Who is my manager right now?',
    askedAt: '2024-06-27T11:00:00Z',
    reading: {
      kind: 'entity-switch',
      at: { asked: 'now' },
      change: { said: 'the first Monday of next month', cue: 'Tomasz' },
      before: 'Priya',
      after: 'Tomasz',
    },
    evidence: ['manager is Priya'],
    sessions: [
      {
        at: '2024-05-03T09:00:00Z',
        turns: [user('My manager is Priya and she is the best I have had.'), assistant('A good manager makes a huge difference.')],
      },
      {
        at: '2024-06-11T16:30:00Z',
        turns: [
          user('Priya is moving to the Lisbon office. Tomasz takes over our team the first Monday of next month.'),
          assistant('Maybe ask Priya for a handover meeting with Tomasz before she goes.'),
        ],
      },
      {
        at: '2024-06-19T12:40:00Z',
        turns: [user('Lunch idea for the team picnic?'), assistant('Wraps travel well, and a big bowl of pasta salad feeds a crowd.')],
      },
    ],
  },
  {
    id: 'tg-current-03',
    type: 'temporal-current',
    question: 'How many days ago did I buy my gravel bike?',
    askedAt: '2024-10-25T07:30:00Z',
    reading: {
      kind: 'days',
      from: { said: 'yesterday', cue: 'gravel bike' },
      to: { asked: 'now' },
    },
    sessions: [
      {
        at: '2024-09-14T18:00:00Z',
        turns: [
          user('I bought my new gravel bike yesterday and rode it out to the lake this morning.'),
          assistant('How did the tyres feel on the loose stuff?'),
          user('Grippy, much better than my old road bike.'),
        ],
      },
      {
        at: '2024-09-20T13:25:00Z',
        turns: [user('Any tips for keeping basil alive on a windowsill?'), assistant('Water at the base, pinch the tops, and keep it out of cold drafts.')],
      },
    ],
  },
  {
    id: 'tg-current-04',
    type: 'temporal-current',
    question: 'Is my street still closed for the resurfacing?',
    askedAt: '2024-11-20T19:00:00Z',
    reading: {
      kind: 'compare',
      left: { asked: 'now' },
      order: 'before',
      right: { said: 'three weeks from today', cue: 'reopens' },
    },
    sessions: [
      {
        at: '2024-11-04T08:10:00Z',
        turns: [
          user('The council shut our street this morning for resurfacing. The sign says it reopens three weeks from today, a Monday.'),
          assistant('You may need to park a street over until then.'),
        ],
      },
      {
        at: '2024-11-12T17:50:00Z',
        turns: [user('My neighbour lent me a ladder to clear the gutters.'), assistant('Have someone hold the ladder while you work.')],
      },
    ],
  },

  // ── prospective-memory: something stated as not yet true ─────────────────
  {
    id: 'tg-prospective-01',
    type: 'prospective-memory',
    question: 'Have I started at Fernhill Labs yet?',
    askedAt: '2024-03-18T08:45:00Z',
    reading: {
      kind: 'compare',
      left: { asked: 'now' },
      order: 'on-or-after',
      right: { said: 'a fortnight from tomorrow', cue: 'Fernhill Labs' },
    },
    sessions: [
      {
        at: '2024-02-20T21:00:00Z',
        turns: [
          user('I signed the offer from Fernhill Labs! I start there a fortnight from tomorrow, a Wednesday.'),
          assistant('Congratulations! Is there anything you want to prepare before the first day?'),
          user('Mostly reading up on their assay pipeline.'),
        ],
      },
      {
        at: '2024-02-27T10:30:00Z',
        turns: [user('What is a good stretch for a stiff lower back?'), assistant('Gentle knee-to-chest holds and cat-cow are a good start.')],
      },
    ],
  },
  {
    id: 'tg-prospective-02',
    type: 'prospective-memory',
    question: 'On what date is my dentist appointment?',
    askedAt: '2024-07-22T15:20:00Z',
    reading: { kind: 'date', of: { said: 'the first Thursday of next month', cue: 'dentist' } },
    sessions: [
      {
        at: '2024-07-09T13:00:00Z',
        turns: [
          user('I booked the dentist for the first Thursday of next month, first thing in the morning.'),
          assistant('Morning slots are usually the least delayed.'),
        ],
      },
      {
        at: '2024-07-15T19:10:00Z',
        turns: [
          user('Recommend a board game for four players?'),
          assistant('Try a tile-laying game; they are quick to teach.'),
          user('We will give it a go at the weekend.'),
        ],
      },
    ],
  },
  {
    id: 'tg-prospective-03',
    type: 'prospective-memory',
    question: "How many days are left until my sister's wedding?",
    askedAt: '2024-04-05T09:00:00Z',
    reading: {
      kind: 'days',
      from: { asked: 'now' },
      to: { said: 'eight weeks from today', cue: 'wedding' },
    },
    sessions: [
      {
        at: '2024-03-02T11:00:00Z',
        turns: [
          user("My sister's wedding is eight weeks from today and I still have not bought a suit."),
          assistant('A tailor usually needs a few weeks for alterations, so start looking soon.'),
        ],
      },
      {
        at: '2024-03-10T16:35:00Z',
        turns: [user('How long should I rest bread dough?'), assistant('About an hour at room temperature, or until it has doubled.')],
      },
    ],
  },
  {
    id: 'tg-prospective-04',
    type: 'prospective-memory',
    question: 'Has the green sofa been delivered yet?',
    askedAt: '2024-11-08T18:15:00Z',
    reading: {
      kind: 'compare',
      left: { asked: 'now' },
      order: 'on-or-after',
      right: { said: 'in five weeks', cue: 'sofa' },
    },
    sessions: [
      {
        at: '2024-10-12T15:00:00Z',
        turns: [user('We ordered the green sofa today. The shop says delivery is in five weeks.'), assistant('That gives you time to move the old one out.')],
      },
      {
        at: '2024-10-30T20:20:00Z',
        turns: [user('Is it worth descaling the kettle with vinegar?'), assistant('Citric acid works just as well and leaves less smell.')],
      },
    ],
  },
]
