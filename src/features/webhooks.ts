// Webhooks: the endpoint routes, the event subscriber that writes each event's deliveries in
// the event's own transaction (so every entry point that builds the app gets deliveries), and the
// sender's job.
import { webhookRoutes } from "../http/v2/webhooks.ts";
import { writeDeliveries } from "../domain/webhooks/deliveries.ts";
import { webhookTick } from "../domain/webhooks/sender.ts";
import type { Feature } from "./feature.ts";

export const webhooks: Feature = ({ s, jobs, onClose }) => {
  s.events.subscribe((tx, event) => writeDeliveries(s, tx, event));
  jobs.add({ name: "webhooks", pattern: "* * * * * *", run: (now) => webhookTick(s, now) });
  onClose(() => s.webhooks.stop());
  return { management: () => webhookRoutes(s) };
};
