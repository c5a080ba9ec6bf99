import type { AccessAction, HeldQualification, Locale, Requirement } from './types.js';

/**
 * Qualification requirements: does a worker meet one, and which actions (discover,
 * preview, accept) do a HIT's requirements leave open to them.
 */

function sameLocale(required: Locale, held: Locale | undefined): boolean {
  if (!held || held.Country.toUpperCase() !== required.Country.toUpperCase()) return false;
  if (required.Subdivision === undefined) return true;
  return (held.Subdivision ?? '').toUpperCase() === required.Subdivision.toUpperCase();
}

/** Whether `held` (undefined: the worker lacks the qualification) satisfies `req`. */
export function meets(req: Requirement, held: HeldQualification | undefined): boolean {
  if (req.Comparator === 'Exists') return held !== undefined;
  if (req.Comparator === 'DoesNotExist') return held === undefined;
  // every other comparator needs the qualification
  if (held === undefined) return false;
  if (req.LocaleValues && req.LocaleValues.length > 0) {
    const hit = req.LocaleValues.some((l) => sameLocale(l, held.localeValue));
    switch (req.Comparator) {
      case 'EqualTo':
      case 'In':
        return hit;
      case 'NotEqualTo':
      case 'NotIn':
        return held.localeValue !== undefined && !hit;
      default:
        return false;
    }
  }
  const value = held.integerValue;
  const values = req.IntegerValues ?? [];
  if (value === undefined || values.length === 0) return false;
  const first = values[0]!;
  switch (req.Comparator) {
    case 'LessThan':
      return value < first;
    case 'LessThanOrEqualTo':
      return value <= first;
    case 'GreaterThan':
      return value > first;
    case 'GreaterThanOrEqualTo':
      return value >= first;
    case 'EqualTo':
      return value === first;
    case 'NotEqualTo':
      return value !== first;
    case 'In':
      return values.includes(value);
    case 'NotIn':
      return !values.includes(value);
  }
}

/** The actions a requirement guards; without ActionsGuarded, RequiredToPreview decides (MTurk's legacy rule). */
export function guardedActions(req: Requirement): AccessAction {
  return req.ActionsGuarded ?? (req.RequiredToPreview ? 'PreviewAndAccept' : 'Accept');
}

export interface Access {
  discover: boolean;
  preview: boolean;
  accept: boolean;
  /** Requirements the worker does not meet, in the HIT's order. */
  unmet: Requirement[];
}

/** Discover < Preview < Accept: a requirement guarding an action also guards the stricter ones. */
export function accessFor(requirements: Requirement[], lookup: (qualificationTypeId: string) => HeldQualification | undefined): Access {
  const unmet = requirements.filter((r) => !meets(r, lookup(r.QualificationTypeId)));
  const guards = (action: AccessAction) => unmet.some((r) => guardedActions(r) === action);
  const discover = !guards('DiscoverPreviewAndAccept');
  const preview = discover && !guards('PreviewAndAccept');
  const accept = preview && unmet.length === 0;
  return { discover, preview, accept, unmet };
}

export interface RequirementIssue {
  path: string;
  message: string;
}

export type QualificationKind = 'integer' | 'locale';

/**
 * Checks requirements beyond the model's types: comparator and values agree, locale
 * values only with the Locale type, at most 10 requirements, 15 integer / 30 locale
 * values for In/NotIn. `kindOf` says whether a type exists and what its values are.
 */
export function checkRequirements(
  requirements: Requirement[],
  kindOf: (id: string) => QualificationKind | undefined,
  base = 'QualificationRequirements',
): RequirementIssue[] {
  const issues: RequirementIssue[] = [];
  if (requirements.length > 10)
    issues.push({ path: base, message: `a HIT can have at most 10 qualification requirements (got ${requirements.length})` });
  requirements.forEach((req, i) => {
    const at = (member: string) => `${base}.${i}.${member}`;
    const ints = req.IntegerValues ?? [];
    const locales = req.LocaleValues ?? [];
    const kind = kindOf(req.QualificationTypeId);
    if (kind === undefined) {
      issues.push({ path: at('QualificationTypeId'), message: `qualification type ${req.QualificationTypeId} does not exist` });
      return;
    }
    if (req.ActionsGuarded !== undefined && req.RequiredToPreview !== undefined) {
      issues.push({ path: at('ActionsGuarded'), message: 'ActionsGuarded cannot be combined with RequiredToPreview' });
    }
    if (ints.length > 0 && locales.length > 0) {
      issues.push({ path: at('IntegerValues'), message: 'give IntegerValues or LocaleValues, not both' });
      return;
    }
    switch (req.Comparator) {
      case 'Exists':
      case 'DoesNotExist':
        if (ints.length > 0 || locales.length > 0)
          issues.push({ path: at('Comparator'), message: `${req.Comparator} takes no IntegerValues or LocaleValues` });
        return;
      case 'In':
      case 'NotIn':
        if (kind === 'locale') {
          if (locales.length === 0)
            issues.push({ path: at('LocaleValues'), message: `${req.Comparator} on the Locale qualification needs 1 to 30 LocaleValues` });
          if (locales.length > 30) issues.push({ path: at('LocaleValues'), message: `at most 30 LocaleValues (got ${locales.length})` });
          if (ints.length > 0)
            issues.push({ path: at('IntegerValues'), message: 'the Locale qualification is compared with LocaleValues' });
        } else {
          if (ints.length === 0) issues.push({ path: at('IntegerValues'), message: `${req.Comparator} needs 1 to 15 IntegerValues` });
          if (ints.length > 15) issues.push({ path: at('IntegerValues'), message: `at most 15 IntegerValues (got ${ints.length})` });
          if (locales.length > 0)
            issues.push({
              path: at('LocaleValues'),
              message: 'LocaleValues can only be used with the Locale qualification (00000000000000000071)',
            });
        }
        return;
      case 'EqualTo':
      case 'NotEqualTo':
        if (kind === 'locale') {
          if (locales.length !== 1)
            issues.push({
              path: at('LocaleValues'),
              message: `${req.Comparator} on the Locale qualification needs exactly one LocaleValue`,
            });
          if (ints.length > 0)
            issues.push({ path: at('IntegerValues'), message: 'the Locale qualification is compared with LocaleValues' });
          return;
        }
        break;
      default:
        if (kind === 'locale') {
          issues.push({
            path: at('Comparator'),
            message: `the Locale qualification can only be compared with EqualTo, NotEqualTo, In, NotIn, Exists or DoesNotExist`,
          });
          return;
        }
    }
    if (locales.length > 0)
      issues.push({
        path: at('LocaleValues'),
        message: 'LocaleValues can only be used with the Locale qualification (00000000000000000071)',
      });
    else if (ints.length !== 1)
      issues.push({ path: at('IntegerValues'), message: `${req.Comparator} needs exactly one IntegerValue (got ${ints.length})` });
  });
  return issues;
}
