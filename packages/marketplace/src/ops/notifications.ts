import type { SendTestEventNotificationRequest, UpdateNotificationSettingsRequest } from '@aws-sdk/client-mturk';
import { DomainError } from '../domain/errors.js';
import { checkNotificationSpec, messageEvent, type NotificationSpec } from '../domain/notifications.js';
import type { EventType } from '../domain/types.js';
import { hashId } from '../ids.js';
import { enqueueTestEvent } from '../services/events.js';
import { requireHitType } from '../services/hits.js';
import { as, invalid, type Operation } from './common.js';

function checkSpec(spec: NotificationSpec, forTest: boolean): void {
  const issues = checkNotificationSpec(spec, { forTest });
  if (issues.length > 0) throw new DomainError('ValidationException', issues.map((i) => `${i.path}: ${i.message}`).join('; '));
}

const updateNotificationSettings: Operation = async (mp, raw) => {
  const input = as<UpdateNotificationSettingsRequest>(raw);
  const type = requireHitType(mp, input.HITTypeId!);
  if (input.Notification === undefined && input.Active === undefined) throw invalid('Notification', 'give a Notification, Active, or both');
  const spec = input.Notification as NotificationSpec | undefined;
  if (spec) checkSpec(spec, false);
  const notification = spec ?? type.notification;
  if (!notification) throw invalid('Active', `HIT type ${type._id} has no notification specification yet; give one in Notification`);
  await mp.types.saveHitType({ ...type, notification, notificationActive: input.Active ?? (spec ? true : type.notificationActive) });
  return {};
};

const sendTestEventNotification: Operation = async (mp, raw) => {
  const input = as<SendTestEventNotificationRequest>(raw);
  const spec = input.Notification as NotificationSpec;
  checkSpec(spec, true);
  const type = input.TestEventType as EventType;
  const test = hashId(`test:${mp.customerId}`);
  await enqueueTestEvent(
    mp,
    spec.Destination,
    spec.Version,
    messageEvent({
      type,
      at: mp.clock.now(),
      hitId: test,
      hitTypeId: test,
      ...(type.startsWith('Assignment') ? { assignmentId: `${test}000001` } : {}),
    }),
  );
  return {};
};

export const notificationOperations: Record<string, Operation> = {
  UpdateNotificationSettings: updateNotificationSettings,
  SendTestEventNotification: sendTestEventNotification,
};
