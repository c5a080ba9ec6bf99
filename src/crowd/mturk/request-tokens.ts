// callers of the earlier path: the tokens are platform-neutral now (../request-tokens.ts)
export { bonusRequestToken, extraAssignmentsToken, hitRequestToken } from '../request-tokens.js';
