/**
 * The floor of /login (bench/web.ts, issue 21): the least a React 19 sign-in costs. React,
 * react-dom and one form (e-mail, password, a button) that posts to the API, built for production
 * by Vite like the app. Not part of the app: built into a scratch folder by the benchmark.
 */
import { type FormEvent, StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './floor.css';

function LoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [failed, setFailed] = useState(false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const response = await fetch('/1/api/1.0/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, remember: false }),
    });
    setFailed(!response.ok);
  };
  return (
    <form onSubmit={(event) => void onSubmit(event)}>
      <h1>Iniciar sesión</h1>
      {failed && <p role="alert">No se ha podido iniciar sesión.</p>}
      <label>
        Correo electrónico
        <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
      </label>
      <label>
        Contraseña
        <input
          type="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      <button type="submit">Iniciar sesión</button>
    </form>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <LoginForm />
    </StrictMode>,
  );
}
