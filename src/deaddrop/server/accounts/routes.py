"""Account pages: sign up, log in, log out, profile, password. Handlers stay thin."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from litestar import Request, Router, get, post
from litestar.enums import RequestEncodingType
from litestar.params import Body, QueryParameter
from litestar.plugins.flash import flash
from litestar.response import Redirect, Template

from deaddrop.server.accounts import limits
from deaddrop.server.accounts.auth import Me, Viewer, log_in, log_out, safe_next
from deaddrop.server.accounts.checks import offered_time_zones
from deaddrop.server.accounts.forms import (
    LoginForm,
    PasswordForm,
    ProfileForm,
    SignUpForm,
    ticked,
    validate_new_password,
    validate_profile,
    validate_sign_up,
)
from deaddrop.server.accounts.service import (
    UsernameTaken,
    WrongPassword,
    authenticate,
    do_change_password,
    do_sign_up,
    do_update_profile,
    find_user,
)
from deaddrop.server.accounts.throttle import Throttle
from deaddrop.server.db.dependencies import DB
from deaddrop.server.render import FORM_REFUSED, client_ip, page, see_other
from deaddrop.server.station.practice.guests import do_adopt_practice

Form = Body(media_type=RequestEncodingType.URL_ENCODED)
USERNAME_TAKEN = "That username is taken. Choose another."
AnyRequest = Request[Any, Any, Any]


@get("/signup", name="signup")
async def sign_up_page(
    viewer: Viewer, next_path: Annotated[str, QueryParameter(name="next")] = "/"
) -> Template | Redirect:
    """The sign-up form; `next` is where the new account goes (a logged-in person goes
    there, or home, at once; a guest who practised signs up to keep their games)."""
    if viewer is not None and not viewer.guest:
        return see_other(safe_next(next_path))
    return _sign_up_form(SignUpForm(next=safe_next(next_path)), {})


@post("/signup")
async def sign_up(
    request: AnyRequest, db: DB, viewer: Viewer, data: Annotated[SignUpForm, Form]
) -> Template | Redirect:
    """Create the account and log it in, or show every field's problem at once (a guest's
    account becomes the new one, its practice games kept)."""
    values, errors = await asyncio.to_thread(validate_sign_up, data)
    if "username" not in errors and await find_user(db, values.username) is not None:
        errors = {"username": USERNAME_TAKEN, **errors}  # first, as on the form
    if not errors:
        try:
            user = await do_sign_up(
                db,
                username=values.username,
                password=values.password,
                display_name=values.display_name,
                guest=viewer,
            )
        except UsernameTaken:  # taken in the moment since the look-up above
            errors["username"] = USERNAME_TAKEN
    if errors:
        data.next = safe_next(data.next)
        return _sign_up_form(data, errors, status_code=FORM_REFUSED)
    log_in(request, user)
    flash(request, f"Welcome to the Station, {user.display_name}.", category="success")
    return see_other(safe_next(data.next))


@get("/login", name="login")
async def login_page(
    viewer: Viewer, next_path: Annotated[str, QueryParameter(name="next")] = "/"
) -> Template | Redirect:
    """The log-in form."""
    if viewer is not None and not viewer.guest:
        return see_other(safe_next(next_path))
    return _login_form(LoginForm(next=safe_next(next_path)), {})


@post("/login")
async def login(
    request: AnyRequest,
    db: DB,
    viewer: Viewer,
    throttle: Throttle,
    data: Annotated[LoginForm, Form],
) -> Template | Redirect:
    """Log in, unless the password is wrong or too many attempts failed lately."""
    username = data.username.strip().lower()
    ip = client_ip(request)
    wait = await throttle.claim(username=username, ip=ip)
    if wait is not None:
        minutes = -(-wait // 60)
        message = f"Too many failed attempts. Try again in {minutes} minute{'s' * (minutes != 1)}."
        return _login_form(
            data, {"form": message}, status_code=429, headers={"Retry-After": str(wait)}
        )
    user = await authenticate(db, username=username, password=data.password)
    if user is None:  # the claim above already counted the failure
        return _login_form(data, {"form": "Wrong username or password."}, status_code=FORM_REFUSED)
    await throttle.succeeded(username=username, ip=ip)
    if viewer is not None:  # a guest who practised keeps their games in this account
        await do_adopt_practice(db, viewer, user)
    log_in(request, user)
    flash(request, f"Logged in as {user.display_name}.", category="success")
    return see_other(safe_next(data.next))


@post("/logout")
async def logout(request: AnyRequest) -> Redirect:
    """End the session."""
    log_out(request)
    flash(request, "Logged out.", category="success")
    return see_other("/")


@get("/account", name="account")
async def account_page(request: AnyRequest, me: Me) -> Template:
    """The profile form, filled in."""
    form = ProfileForm(
        display_name=me.display_name,
        email=me.email or "",
        time_zone=me.time_zone,
        mail_digests="yes" if me.mail_digests else "",
        mail_reminders="yes" if me.mail_reminders else "",
    )
    return _profile_form(request, me, form, {})


@post("/account")
async def update_account(
    request: AnyRequest, db: DB, me: Me, data: Annotated[ProfileForm, Form]
) -> Template | Redirect:
    """Save the profile, or show what to fix."""
    profile, errors = validate_profile(data)
    if errors:
        return _profile_form(request, me, data, errors, status_code=FORM_REFUSED)
    await do_update_profile(db, me, profile)
    flash(request, "Profile saved.", category="success")
    return see_other("/account")


@get("/account/password", name="password")
async def password_page(me: Me) -> Template:
    """The change-password form."""
    return _form_page("password", me, {})


@post("/account/password")
async def change_password(
    request: AnyRequest, db: DB, me: Me, data: Annotated[PasswordForm, Form]
) -> Template | Redirect:
    """Change the password (the current one is required) and end every other session."""
    new_password, errors = await asyncio.to_thread(
        validate_new_password, data, me.username, me.display_name
    )
    if not errors:
        try:
            await do_change_password(db, me, old=data.old_password, new=new_password)
        except WrongPassword:
            errors["old_password"] = "That is not your current password."
    if errors:
        return _form_page("password", me, errors, status_code=FORM_REFUSED)
    log_in(request, me)  # this session carries on under the new epoch; the others end
    flash(request, "Password changed. Your other sessions have been logged out.", "success")
    return see_other("/account")


def _form_page(
    name: str,
    viewer: Me | None,
    errors: dict[str, str],
    status_code: int = 200,
    headers: dict[str, str] | None = None,
    **context: Any,
) -> Template:
    """The account form `templates/accounts/<name>.html`, its fields' limits and what to fix."""
    return page(
        f"accounts/{name}.html",
        viewer=viewer,
        errors=errors,
        limits=limits,
        status_code=status_code,
        headers=headers,
        **context,
    )


def _sign_up_form(form: SignUpForm, errors: dict[str, str], status_code: int = 200) -> Template:
    return _form_page("signup", None, errors, status_code, form=form)


def _login_form(
    form: LoginForm,
    errors: dict[str, str],
    status_code: int = 200,
    headers: dict[str, str] | None = None,
) -> Template:
    return _form_page("login", None, errors, status_code, headers, form=form)


def _profile_form(
    request: AnyRequest,
    me: Me,
    form: ProfileForm,
    errors: dict[str, str],
    status_code: int = 200,
) -> Template:
    return _form_page(
        "account",
        me,
        errors,
        status_code,
        form=form,
        zones=offered_time_zones(),
        ticked=ticked,
        mail_on=request.app.state.settings.mail.enabled,
    )


router = Router(
    path="/",
    route_handlers=[
        sign_up_page,
        sign_up,
        login_page,
        login,
        logout,
        account_page,
        update_account,
        password_page,
        change_password,
    ],
)
