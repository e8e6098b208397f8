const base = 'http://127.0.0.1:4731';
const login = await fetch(`${base}/command/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@lampyr.local', password: 'alarmui-admin-pass' }) });
const body = await login.json();
const token = body.data?.token;
const [path, payload] = process.argv.slice(2);
const r = await fetch(`${base}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-account-id': '2' }, body: payload });
console.log(r.status, (await r.text()).slice(0, 1500));
