/** The longest a Node timer can wait (about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;
