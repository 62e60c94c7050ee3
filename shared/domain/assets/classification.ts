import rulesData from '../../data/assets/classification-rules.json';

/**
 * Classifies free-text asset types into the 40 asset types and 4 categories of s. 380.093(2)(a).
 * The rules are data (`shared/data/assets/classification-rules.json`), tried in order; the first
 * match wins. Each result names the rule, the field and the pattern that decided it, so every
 * stored asset can say why it is in its category.
 */

export const ASSET_CATEGORIES = ['transportation', 'critical_infrastructure', 'community_emergency', 'natural_cultural_historical'] as const;
export type AssetCategory = (typeof ASSET_CATEGORIES)[number];

interface RuleData {
  asset_type: string;
  category: AssetCategory;
  label: string;
  patterns: string[];
  codes?: { column: string; values: string[]; source: string }[];
}

interface CompiledRule extends RuleData {
  compiled: RegExp[];
}

const RULES: CompiledRule[] = (rulesData.rules as RuleData[]).map((rule) => ({
  ...rule,
  compiled: rule.patterns.map((pattern) => new RegExp(pattern, 'i')),
}));

export const RULESET_VERSION: string = rulesData.version;
export const CATEGORY_LABELS = rulesData.categories as Record<AssetCategory, string>;
export const ASSET_TYPES: readonly { asset_type: string; category: AssetCategory; label: string }[] =
  RULES.map(({ asset_type, category, label }) => ({ asset_type, category, label }));
export const ASSET_TYPE_IDS = ASSET_TYPES.map((t) => t.asset_type) as [string, ...string[]];

const typeById = new Map(ASSET_TYPES.map((t) => [t.asset_type, t]));
export function assetTypeInfo(assetType: string) {
  return typeById.get(assetType);
}

/** A candidate text to classify: the column it came from and its value. */
export interface ClassifierInput {
  field: string;
  text: string;
}

export interface Classification {
  asset_type: string | null;
  category: AssetCategory | null;
  /** `<asset_type>:<pattern>` or `<asset_type>:code:<column>`; `default_category` when only the import's category applied. */
  rule: string;
  matched_field: string | null;
  matched_text: string | null;
  ruleset_version: string;
}

export function normalizeTypeText(value: string): string {
  return value.toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9]+/g, ' ').trim();
}

type RuleMatch = { rule: CompiledRule; how: string } | undefined;

/**
 * Type texts repeat (a file has a few dozen distinct ones over thousands of rows): their outcome
 * is kept, up to a bound, so each distinct text runs through the patterns once.
 */
const MAX_REMEMBERED = 20_000;
const remembered = new Map<string, RuleMatch>();

function matchRule(field: string, text: string, category: AssetCategory | undefined): RuleMatch {
  const key = `${category ?? ''}\u0000${field}\u0000${text}`;
  if (remembered.has(key)) return remembered.get(key);
  const match = findRule(field, text, category);
  if (remembered.size < MAX_REMEMBERED) remembered.set(key, match);
  return match;
}

function findRule(field: string, text: string, category: AssetCategory | undefined): RuleMatch {
  const normalized = normalizeTypeText(text);
  if (!normalized) return undefined;
  const column = field.toLowerCase();
  for (const rule of RULES) {
    if (category && rule.category !== category) continue;
    for (const code of rule.codes ?? []) {
      if (code.column === column && code.values.includes(normalized)) return { rule, how: `code:${code.column}` };
    }
    const index = rule.compiled.findIndex((pattern) => pattern.test(normalized));
    if (index >= 0) return { rule, how: rule.patterns[index]! };
  }
  return undefined;
}

/**
 * Tries each input in order (type columns first, then the name) and returns the first match.
 * With `category`, only that category's types are candidates; when none matches, the asset still
 * gets the category (asset type null), as the importer declared it.
 */
export function classifyAsset(inputs: readonly ClassifierInput[], category?: AssetCategory): Classification {
  for (const input of inputs) {
    const match = matchRule(input.field, input.text, category);
    if (match) {
      return {
        asset_type: match.rule.asset_type,
        category: match.rule.category,
        rule: `${match.rule.asset_type}:${match.how}`,
        matched_field: input.field,
        matched_text: input.text,
        ruleset_version: RULESET_VERSION,
      };
    }
  }
  return {
    asset_type: null,
    category: category ?? null,
    rule: category ? 'default_category' : 'unclassified',
    matched_field: null,
    matched_text: null,
    ruleset_version: RULESET_VERSION,
  };
}
