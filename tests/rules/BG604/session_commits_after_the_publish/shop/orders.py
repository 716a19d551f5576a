from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import Session

from shop.tasks import send_receipt

db = SQLAlchemy()


def place(order):
    # The session began its transaction at add(): the task runs before the commit, or after a rollback.
    db.session.add(order)
    db.session.flush()
    send_receipt.delay(order.id)  # error: BG604
    db.session.commit()


def place_typed(order, session: Session):
    session.add(order)
    send_receipt.delay(order.id)  # error: BG604
    session.commit()


def place_then_publish(order, session: Session):
    # Not flagged: committed before the publish.
    session.add(order)
    session.commit()
    send_receipt.delay(order.id)


def publish_before_writing(order, session: Session):
    # Not flagged: nothing written yet when the message goes out.
    send_receipt.delay(order.id)
    session.add(order)
    session.commit()


def committed_elsewhere(order, session: Session):
    # Not flagged: the commit is the caller's, which bgcheck does not follow here.
    session.add(order)
    send_receipt.delay(order.id)


def rolled_back_first(order, session: Session):
    # Not flagged: the rollback ended the transaction the add began; the commit below commits nothing of it.
    session.add(order)
    session.rollback()
    send_receipt.delay(order.id)
    session.commit()


def untyped(order, session):
    # Not flagged: a receiver bgcheck cannot type is not known to be a session, whatever its name.
    session.add(order)
    send_receipt.delay(order.id)
    session.commit()


def place_sqlmodel(order, engine):
    from sqlmodel import Session as ModelSession

    with ModelSession(engine) as session:
        session.add(order)
        send_receipt.delay(order.id)  # error: BG604
        session.commit()
