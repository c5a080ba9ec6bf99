import type { QualificationTypeState } from '../domain/qualification-types.js';
import type { HitTypeDoc, MarketplaceModels, QualificationTypeDoc } from './models.js';

/** HIT types and qualification types: few documents, kept in memory, written through. */
export class TypeCaches {
  readonly hitTypes = new Map<string, HitTypeDoc>();
  readonly qualificationTypes = new Map<string, QualificationTypeState>();

  constructor(private readonly models: MarketplaceModels) {}

  async load(): Promise<void> {
    this.hitTypes.clear();
    for (const t of await this.models.hitTypes.find({}).lean<HitTypeDoc[]>()) this.hitTypes.set(t._id, t);
    this.qualificationTypes.clear();
    for (const q of await this.models.qualificationTypes.find({}).lean<QualificationTypeDoc[]>()) {
      const { _id, ...state } = q;
      this.qualificationTypes.set(_id, { ...state, id: _id });
    }
  }

  async saveHitType(doc: HitTypeDoc): Promise<void> {
    await this.models.hitTypes.replaceOne({ _id: doc._id }, doc, { upsert: true });
    this.hitTypes.set(doc._id, doc);
  }

  async saveQualificationType(state: QualificationTypeState): Promise<void> {
    await this.models.qualificationTypes.replaceOne({ _id: state.id }, { ...state, _id: state.id }, { upsert: true });
    this.qualificationTypes.set(state.id, state);
  }
}
