/**
 * What a generated time-grounded corpus is written from: scenarios (the
 * sentences a user says, with a slot for a relative expression), the names
 * and things they mention, and unrelated sessions used as distractors. All
 * written for this project; no absolute date, month name or digit anywhere,
 * so the rule checker has nothing to remove. The generator (generate.ts)
 * draws from these and derives every gold from the session times.
 */

/** A change from one entity to another, said to happen at a relative moment ("Which gym was I a member of five weeks ago?"). */
export interface SwitchScenario {
  /** The question as of a past moment (`at` is e.g. "five weeks ago"). */
  asOf: (at: string) => string
  /** The question about now. */
  now: string
  entities: readonly string[]
  /** The user turn that states the entity before the change, and a phrase only it holds (its evidence). */
  before: (entity: string) => { turn: string; evidence: string }
  /** The user turn that announces the change, holding `after` and `when`. */
  change: (before: string, after: string, when: string) => string
  beforeReply: string
  changeReply: string
}

/** Something stated with a moment (a deadline, a start, a booking) that a question compares with the query time or counts days to. */
export interface MomentScenario {
  /** A word only the stating turn holds, with the expression (its cue). */
  cue: string
  /** The user turn, holding the cue and `when`. */
  turn: (when: string) => string
  reply: string
  /** The sentence cannot take "in five weeks" where `when` goes (e.g. "booked for …"). @default false */
  noIn?: boolean
}

export const SWITCH_SCENARIOS: readonly SwitchScenario[] = [
  {
    asOf: (at) => `Which gym was I a member of ${at}?`,
    now: 'Which gym am I a member of now?',
    entities: ['Northside Fitness', 'Granite Boulder Hall', 'Pulse Studio', 'Riverside Leisure Club', 'Copperline Gym', 'Summit Climbing Wall'],
    before: (e) => ({ turn: `I signed up at ${e} and my legs already hurt.`, evidence: `signed up at ${e}` }),
    change: (b, a, when) => `I am leaving ${b}. My ${a} membership starts ${when}, and ${b} ends the same day.`,
    beforeReply: 'Good for you. Ease in slowly for the first few sessions.',
    changeReply: 'A clean switch, then. Check whether the new place wants an induction.',
  },
  {
    asOf: (at) => `Which phone carrier was I with ${at}?`,
    now: 'Which phone carrier am I with now?',
    entities: ['Kestrel Mobile', 'Lumen Telecom', 'Orbit Wireless', 'Tidewater Mobile', 'Parcel Phone'],
    before: (e) => ({ turn: `My phone carrier is ${e}, and the signal at home is patchy.`, evidence: `phone carrier is ${e}` }),
    change: (b, a, when) => `I asked ${a} to port my number away from ${b}. The port completes ${when}.`,
    beforeReply: 'Wifi calling often helps indoors.',
    changeReply: 'Keep the old SIM in until the port has finished.',
  },
  {
    asOf: (at) => `Who was my manager ${at}?`,
    now: 'Who is my manager now?',
    entities: ['Amara', 'Henrik', 'Lucía', 'Ingrid', 'Kwame', 'Yusuf', 'Beatriz', 'Soren', 'Mei'],
    before: (e) => ({ turn: `My manager is ${e} and our one-to-ones are actually useful.`, evidence: `manager is ${e}` }),
    change: (b, a, when) => `${b} is moving to another team. ${a} takes over as my manager ${when}.`,
    beforeReply: 'That is worth a lot. Good one-to-ones are rarer than they should be.',
    changeReply: 'Ask for a handover meeting so nothing falls through the cracks.',
  },
  {
    asOf: (at) => `Which internet provider did I have ${at}?`,
    now: 'Which internet provider do I have now?',
    entities: ['Fibrelane', 'Skyrail Broadband', 'Harbourline Net', 'Quickstream', 'Meshwell'],
    before: (e) => ({ turn: `Our internet provider is ${e} and the router keeps dropping out.`, evidence: `internet provider is ${e}` }),
    change: (b, a, when) => `I cancelled ${b}. ${a} switches our line over ${when}.`,
    beforeReply: 'Try moving the router off the floor and away from the microwave.',
    changeReply: 'Keep the old router until the new line is live.',
  },
  {
    asOf: (at) => `Which team was I on ${at}?`,
    now: 'Which team am I on now?',
    entities: ['Atlas', 'Beacon', 'Lantern', 'Meridian', 'Compass', 'Keystone'],
    before: (e) => ({ turn: `I work on the ${e} team and we ship every week.`, evidence: `on the ${e} team` }),
    change: (b, a, when) => `I am moving from the ${b} team to the ${a} team ${when}.`,
    beforeReply: 'A weekly release rhythm keeps things honest.',
    changeReply: 'Moving teams is a good chance to write down what you know.',
  },
  {
    asOf: (at) => `Which energy supplier did we have ${at}?`,
    now: 'Which energy supplier do we have now?',
    entities: ['Brightgrid Energy', 'Solace Power', 'Northwind Energy', 'Ember Utilities', 'Greenleaf Power'],
    before: (e) => ({ turn: `Our energy supplier is ${e}, and the bills keep creeping up.`, evidence: `energy supplier is ${e}` }),
    change: (b, a, when) => `We are switching from ${b} to ${a}; the switch goes through ${when}.`,
    beforeReply: 'A meter reading every so often keeps the estimates honest.',
    changeReply: 'Take a meter reading on the day the switch goes through.',
  },
]

/** Deadlines: something that holds until a moment ("Is my Notewise trial still running?" — yes while now is before it). */
export const DEADLINE_SCENARIOS: readonly (MomentScenario & { question: string })[] = [
  ...['Notewise', 'Tallybook', 'Inkframe', 'Drafthaus', 'Pocketplan'].map((app) => ({
    question: `Is my ${app} trial still running?`,
    cue: app,
    turn: (when: string) => `I started a free trial of ${app} today. It runs out ${when}.`,
    reply: 'Set a reminder before it ends, in case you decide not to keep it.',
  })),
  ...['Mill Lane', 'Ash Grove', 'Quarry Road', 'Baker Row', 'Tannery Street'].map((street) => ({
    question: `Is ${street} still closed for the roadworks?`,
    cue: street,
    turn: (when: string) => `The council closed ${street} this morning for roadworks. It reopens ${when}.`,
    reply: 'You may need to park a street over until then.',
  })),
  ...['The Salt Road', 'Winter Orchard', 'A Field of Kites', 'The Glass Harbour'].map((title) => ({
    question: `Is my library copy of ${title} still on loan to me?`,
    cue: title,
    turn: (when: string) => `I borrowed ${title} from the library today; it is due back ${when}.`,
    reply: 'Renewing online is usually allowed once.',
  })),
  {
    question: 'Is my visitor parking permit still valid?',
    cue: 'parking permit',
    turn: (when) => `I bought a visitor parking permit this afternoon. It runs out ${when}.`,
    reply: 'Keep it on the dashboard where the warden can see it.',
  },
  {
    question: 'Is my gym guest pass still valid?',
    cue: 'guest pass',
    turn: (when) => `A friend gave me a gym guest pass; it expires ${when}.`,
    reply: 'A guest pass is a good way to try the classes.',
  },
]

/** Starts: something that begins at a moment ("Have I started at Larkspur Analytics yet?" — yes once now reaches it). */
export const START_SCENARIOS: readonly (MomentScenario & { question: string })[] = [
  ...['Larkspur Analytics', 'Tidewell Robotics', 'Corbel Studio', 'Ostara Foods', 'Heronsgate Press'].map((company) => ({
    question: `Have I started at ${company} yet?`,
    cue: company,
    turn: (when: string) => `I accepted the offer from ${company}! I start there ${when}.`,
    reply: 'Congratulations. Is there anything you want to read up on before the first day?',
  })),
  ...[
    ['the green sofa', 'sofa'],
    ['the standing desk', 'standing desk'],
    ['the oak bookcase', 'bookcase'],
    ['the cargo bike', 'cargo bike'],
  ].map(([item, cue]) => ({
    question: `Has ${item} been delivered yet?`,
    cue: cue as string,
    turn: (when: string) => `We ordered ${item} today. The shop says delivery is ${when}.`,
    reply: 'That gives you time to clear a space for it.',
  })),
  ...[
    ["my brother's graduation", 'graduation'],
    ["my cousin's wedding", 'wedding'],
    ['the street party', 'street party'],
    ['the office move', 'office move'],
  ].map(([event, cue]) => ({
    question: `Has ${event} happened yet?`,
    cue: cue as string,
    turn: (when: string) => `Just so you know, ${event} is ${when}, and I still have things to sort out.`,
    reply: 'Make a short list now so nothing is forgotten on the day.',
  })),
  {
    question: 'Have the builders started on the kitchen yet?',
    cue: 'kitchen',
    turn: (when) => `The builders start on the kitchen ${when}.`,
    reply: 'Pack away the cupboards a few days early.',
  },
]

/** Bookings: a day the question asks for ("On what date is my eye test?"). */
export const BOOKING_SCENARIOS: readonly (MomentScenario & { question: string })[] = [
  ['my eye test', 'eye test'],
  ['the car service', 'car service'],
  ['my haircut', 'haircut'],
  ['my passport interview', 'passport interview'],
  ['the piano recital', 'piano recital'],
  ['my physiotherapy session', 'physiotherapy'],
].map(([thing, cue]) => ({
  question: `On what date is ${thing}?`,
  cue: cue as string,
  turn: (when: string) => `I booked ${thing} for ${when}.`,
  reply: 'Put it in your calendar with a reminder the day before.',
  noIn: true,
}))

/** Past events the question counts days since ("How many days ago did I buy my new kayak?"). */
export const PAST_SCENARIOS: readonly (MomentScenario & { question: string })[] = [
  {
    question: 'How many days ago did I buy my new kayak?',
    cue: 'kayak',
    turn: (when) => `I bought my new kayak ${when} and took it out on the river.`,
    reply: 'How did it handle in the current?',
  },
  {
    question: 'How many days ago did I move into the new flat?',
    cue: 'new flat',
    turn: (when) => `We moved into the new flat ${when} and the boxes are everywhere.`,
    reply: 'Unpack the kitchen first; the rest can wait.',
  },
  {
    question: 'How many days ago did I adopt the puppy?',
    cue: 'puppy',
    turn: (when) => `We adopted the puppy ${when} and nobody has slept since.`,
    reply: 'A crate with a blanket over it can help at night.',
  },
  {
    question: 'How many days ago did I start the pottery course?',
    cue: 'pottery course',
    turn: (when) => `I started the pottery course ${when} and my first bowl is lopsided.`,
    reply: 'Everyone’s first bowl is lopsided.',
  },
  {
    question: 'How many days ago did I get my braces off?',
    cue: 'braces',
    turn: (when) => `I got my braces off ${when} and I cannot stop smiling.`,
    reply: 'Remember to wear the retainer at night.',
  },
  {
    question: 'How many days ago did I plant the apple tree?',
    cue: 'apple tree',
    turn: (when) => `I planted the apple tree ${when} by the back fence.`,
    reply: 'Water it deeply for the first few weeks.',
  },
]

/** Unrelated sessions, two or three turns each, that share no cue with any scenario. */
export const DISTRACTOR_SESSIONS: readonly (readonly [string, string, string?])[] = [
  ['Any tips for keeping basil alive on a windowsill?', 'Water at the base, pinch the tops, and keep it out of cold drafts.'],
  ['Red lentils or yellow split peas for a weeknight dal?', 'Red lentils cook faster and go creamy; split peas keep more bite.', 'Red lentils it is.'],
  ['Which is better for a beginner, a ukulele or a guitar?', 'A ukulele is gentler on the fingers; a guitar goes further in the long run.'],
  ['How long should I rest bread dough?', 'About an hour at room temperature, or until it has doubled.'],
  ['Our book club picked a very long novel. We meet again in three weeks.', 'That is roughly a hundred pages a week if you start now.'],
  ['Is it worth descaling the kettle with vinegar?', 'Citric acid works just as well and leaves less smell.'],
  ['Recommend a board game for four players?', 'Try a tile-laying game; they are quick to teach.', 'We will give it a go at the weekend.'],
  ['What is a good stretch for a stiff lower back?', 'Gentle knee-to-chest holds are a good start.'],
  ['My cousin is visiting soon and wants to see the coast.', 'The cliff path is lovely if the weather holds.', 'I will pack rain jackets just in case.'],
  ['How do I stop my glasses fogging up in the cold?', 'A drop of washing-up liquid rubbed on and polished off works well.'],
  ['Can I freeze cooked rice?', 'Yes, cool it quickly and freeze it flat in a bag.'],
  ['What should I read after a long fantasy series?', 'Something short and sharp: a novella clears the palate.', 'Good idea, I will look for one.'],
  ['My neighbour lent me a ladder to clear the gutters.', 'Have someone hold the ladder while you work.'],
  ['Why does my sourdough come out flat?', 'Usually an underactive starter; feed it twice a day for a while.'],
  ['Is a cast iron pan worth it?', 'If you do not mind the weight, it will outlive you.'],
  ['How often should I water a cactus?', 'Rarely: let the soil dry out completely between waterings.'],
  ['Which chess opening should a beginner learn?', 'Pick one solid opening for each colour and play it every game.'],
  ['I keep waking up at night. Any ideas?', 'Keep the room cool and dark, and skip screens for the last hour.', 'I will try the screen thing.'],
]

/** Things that stay true until a moment, asked about at a past moment ("Five weeks ago, was I still working night shifts?"). */
export const STILL_SCENARIOS: readonly (MomentScenario & { question: (at: string) => string; order: 'before' | 'on-or-before' })[] = [
  {
    question: (at) => `${at}, was I still working night shifts?`,
    cue: 'night shift',
    turn: (when) => `Good news: my last night shift is ${when}, and after that I am on days for good.`,
    reply: 'That is a big change for your sleep. Plan a slow shift back.',
    order: 'on-or-before',
  },
  {
    question: (at) => `${at}, was I still commuting by train?`,
    cue: 'commuting by train',
    turn: (when) => `My last day commuting by train is ${when}; after that I work from home.`,
    reply: 'You will get a lot of time back.',
    order: 'on-or-before',
  },
  {
    question: (at) => `${at}, was my wrist still in a cast?`,
    cue: 'cast',
    turn: (when) => `The cast on my wrist comes off ${when}.`,
    reply: 'Ask about physiotherapy exercises for afterwards.',
    order: 'before',
  },
  {
    question: (at) => `${at}, was I still living in the old flat?`,
    cue: 'old flat',
    turn: (when) => `We hand back the keys to the old flat ${when} and move across town.`,
    reply: 'Photograph every room when you hand back the keys.',
    order: 'before',
  },
  {
    question: (at) => `${at}, was the swimming pool still shut for repairs?`,
    cue: 'swimming pool',
    turn: (when) => `The swimming pool is shut for repairs; it reopens ${when}.`,
    reply: 'The lake might do for a while, if you are brave.',
    order: 'before',
  },
]

/** Events ahead whose days are counted ("How many days are left until my driving test?"). */
export const UPCOMING_SCENARIOS: readonly (MomentScenario & { name: string })[] = [
  {
    name: 'my certification exam',
    cue: 'certification exam',
    turn: (when) => `I booked my certification exam for ${when}.`,
    reply: 'Plan two full passes through the syllabus.',
    noIn: true,
  },
  {
    name: "my sister's wedding",
    cue: "sister's wedding",
    turn: (when) => `My sister's wedding is ${when} and I still have not bought a suit.`,
    reply: 'A tailor usually needs a few weeks for alterations.',
  },
  { name: 'the half marathon', cue: 'half marathon', turn: (when) => `I entered the half marathon; it is ${when}.`, reply: 'Build the long runs up slowly.' },
  {
    name: 'our flight to the islands',
    cue: 'flight',
    turn: (when) => `We booked our flight to the islands; it leaves ${when}.`,
    reply: 'Check the baggage allowance before you pack.',
  },
  {
    name: 'the school play',
    cue: 'school play',
    turn: (when) => `The school play is ${when} and my son has two lines.`,
    reply: 'Two lines is a perfect first part.',
  },
  {
    name: 'my driving test',
    cue: 'driving test',
    turn: (when) => `My driving test is booked for ${when}.`,
    reply: 'A mock test with an instructor helps with the nerves.',
    noIn: true,
  },
]

/** Neutral third turns a user may add to a session. */
export const FOLLOW_UPS: readonly string[] = ['Thanks, that helps.', 'Good idea, I will.', 'Noted.', 'I will keep that in mind.']
