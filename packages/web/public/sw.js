// Lampyr's service worker: shows a Web Push message as a system notification and, when it is
// clicked, brings a console tab forward (or opens Real-time Alarms). It caches nothing.
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Lampyr';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: data.id === undefined ? undefined : `lampyr-${String(data.id)}`,
      icon: '/favicon.svg',
      requireInteraction: data.level === 'high',
      data: { url: typeof data.url === 'string' ? data.url : '/alerts-alarms/real-time' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/', self.location.origin);
  // Only a page of this console is ever opened from a notification.
  const url = target.origin === self.location.origin ? target.href : self.location.origin;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
      const tab = tabs.find((c) => c.url.startsWith(self.location.origin));
      if (tab) return tab.focus().then(() => tab.navigate?.(url));
      return self.clients.openWindow(url);
    }),
  );
});
