import { MASTERS_QUALIFICATION_IDS, SYSTEM_QUALIFICATIONS, type HitPreset, type PresetQualification } from './presets.js';

/**
 * The qualification requirements a preset puts on every HIT, one line each, as
 * `publish --dry-run` lists them (pure): a requester sees before publishing who will be
 * able to take the work (e.g. that `dream` locks out accounts with fewer than 500 approved
 * HITs, which a lab's own annotators rarely have; the `lab` preset drops those).
 */

const SYSTEM_NAMES: Record<string, string> = {
  [SYSTEM_QUALIFICATIONS.PercentAssignmentsApproved]: 'system: percent of assignments approved',
  [SYSTEM_QUALIFICATIONS.NumberHITsApproved]: 'system: number of HITs approved',
  [SYSTEM_QUALIFICATIONS.Locale]: 'system: locale',
  [SYSTEM_QUALIFICATIONS.Adult]: 'system: adult content',
  [MASTERS_QUALIFICATION_IDS.production]: 'Masters (production)',
  [MASTERS_QUALIFICATION_IDS.sandbox]: 'Masters (sandbox)',
};

function subject(q: PresetQualification, target: string): string {
  if (q.masters) return `Masters ${target === 'production' ? MASTERS_QUALIFICATION_IDS.production : MASTERS_QUALIFICATION_IDS.sandbox}`;
  if (q.custom) return `custom ${q.custom} (qualification test hits/qualification/${q.custom}.json; its type is created on the target)`;
  const id = q.id as string;
  return `${id} (${SYSTEM_NAMES[id] ?? 'a qualification type by id'})`;
}

function condition(q: PresetQualification): string {
  if (q.masters) return 'Exists';
  const values = q.locales
    ? q.locales.map((l) => (l.subdivision ? `${l.country}-${l.subdivision}` : l.country))
    : (q.values ?? []).map(String);
  return [q.comparator, values.join(', ')].filter(Boolean).join(' ');
}

export function describeRequirements(preset: Pick<HitPreset, 'qualificationRequirements'>, target: string): string[] {
  const reqs = preset.qualificationRequirements;
  if (reqs.length === 0) return ['qualification requirements: none (every worker on the target can take the HITs)'];
  return [
    `qualification requirements (${reqs.length}, on every HIT):`,
    ...reqs.map((q) => `  ${subject(q, target)} ${condition(q)}${q.actionsGuarded ? ` [guards ${q.actionsGuarded}]` : ''}`),
  ];
}
