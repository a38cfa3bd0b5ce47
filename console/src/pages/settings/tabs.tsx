import type { ComponentChildren } from 'preact';
import { NavLinks } from '../../components/nav';
import { RoleNotice } from '../../components/role-notice';
import { Page, Section } from '../../components/ui';
import { ADMIN_ROLES } from '../../roles';
import { isAdmin, useSignedIn } from '../../session';

const TABS = [
  ['/console/settings/api-keys', 'API Keys'],
  ['/console/settings/integrations', 'Integrations'],
  ['/console/settings/members', 'Members'],
  ['/console/settings/account', 'Account'],
] as const;

/** Shown to owners and admins only: the page tells anyone else who may read it. */
const AUDIT_TAB = ['/console/settings/audit-log', 'Audit log'] as const;

const INTEGRATION_TABS = [
  ['/console/settings/integrations/webhooks', 'Webhooks'],
  ['/console/settings/integrations/subscriptions', 'Subscriptions'],
] as const;

/** A page of Settings under its tabs: API Keys | Integrations (→ Webhooks | Subscriptions) | Members | Account | Audit log */
export function SettingsPage({
  integrations = false,
  children,
}: {
  integrations?: boolean;
  children: ComponentChildren;
}) {
  const tabs = isAdmin(useSignedIn()) ? [...TABS, AUDIT_TAB] : TABS;
  return (
    <Page title="Settings" lead="API keys, integrations and the people of this project.">
      <NavLinks class="tabs" label="Settings" links={tabs} />
      {integrations && <NavLinks class="tabs" label="Integrations" links={INTEGRATION_TABS} />}
      {children}
    </Page>
  );
}

/**
 * An Integrations page (`page`: owners and admins) or, for any other role, which roles may connect
 * webhooks under its `title`: the server refuses them the endpoints and their deliveries.
 */
export function IntegrationsPage({ title, page: Allowed }: { title: string; page: () => ComponentChildren }) {
  if (isAdmin(useSignedIn())) return <Allowed />;
  return (
    <SettingsPage integrations>
      <Section title={title}>
        <RoleNotice what="connect webhooks" allowed={ADMIN_ROLES} />
      </Section>
    </SettingsPage>
  );
}
